// Compiled by test/package.test.ts against the built package, as an ES module consumer sees it.
import { RateLimitError, verifyWebhook, type CatalogEntry, type Oeuvre, type Page } from '@oeuvre/sdk'

export async function titles(oeuvre: Oeuvre, orgId: string): Promise<string[]> {
  const page: Page<CatalogEntry> = await oeuvre.catalog.list(orgId, { limit: 10 })
  const all: string[] = page.data.map((entry) => entry.title)
  for await (const entry of oeuvre.catalog.list(orgId)) all.push(entry.title)
  return all
}

export const isRateLimited = (error: unknown): number | undefined =>
  error instanceof RateLimitError ? error.retryAfter : undefined

export const verify = (body: string, headers: Headers, secret: string) => verifyWebhook(body, headers, [secret])
