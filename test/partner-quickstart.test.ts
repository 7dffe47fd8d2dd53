import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from './helpers.js'

const run = promisify(execFile)
const QUICKSTART = new URL('../docs/partner-quickstart.md', import.meta.url)

/** The document's shell blocks, in order, as written. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => match[1]!)
}

/**
 * Runs `blocks` in order in one bash process, as a reader pasting them into one terminal
 * would, with nothing set but PATH, HOME and the deployment's address. Strict (`set -euo
 * pipefail`): a failed command or a variable no block set stops the run. Returns what each
 * block printed.
 */
async function runInOneShell(blocks: string[], oeuvreUrl: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-quickstart-'))
  try {
    const script = [
      'set -euo pipefail',
      ...blocks.map((block, index) => `{\n${block}\n} > ${JSON.stringify(path.join(dir, `${index}.out`))}`),
    ].join('\n')
    await writeFile(path.join(dir, 'quickstart.sh'), script)
    await run('bash', [path.join(dir, 'quickstart.sh')], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, OEUVRE_URL: oeuvreUrl },
      timeout: 60_000,
    }).catch((error: { code?: number; stderr?: string }) => {
      throw new Error(`the quickstart failed (exit ${error.code}): ${error.stderr ?? ''}`)
    })
    return await Promise.all(blocks.map((_, index) => readFile(path.join(dir, `${index}.out`), 'utf8')))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

let t: TestApp
let baseUrl: string

beforeAll(async () => {
  // A fresh server on a real socket: curl talks to it as a new partner would.
  t = await buildTestApp()
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => t.close())

interface FeedPage {
  data: { action: string; sequence: number; orgId: string }[]
  pagination: { cursor: string; hasMore: boolean }
}

it('runs every shell block of docs/partner-quickstart.md, as written and in order, from a fresh start', async () => {
  const blocks = shellBlocks(await readFile(QUICKSTART, 'utf8'))
  const outputs = await runInOneShell(blocks, baseUrl)

  // What the blocks printed, found by what they do (so blocks can be added before them).
  const textBy = (test: (block: string) => boolean) => {
    const index = blocks.findIndex(test)
    expect(index, 'a block of the document').toBeGreaterThanOrEqual(0)
    return outputs[index]!
  }
  const printedBy = (test: (block: string) => boolean) => JSON.parse(textBy(test))
  const formExchange = printedBy((block) => block.includes('/oauth/token') && block.includes('client_secret='))
  expect(formExchange).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'events:read members:read' })
  expect(formExchange.access_token).toMatch(/^oat_/)
  // The token names its org, and so does GET /v1/orgs: the id every /v1 route needs.
  const client0 = printedBy((block) => block.includes('/api/clients'))
  expect(formExchange.org_id).toBe(client0.orgId)
  expect(textBy((block) => block.includes('/v1/orgs"')).trim()).toBe(client0.orgId)
  expect(blocks.some((block) => block.includes('/oauth/token') && block.includes('-u '))).toBe(true)

  const client = printedBy((block) => block.includes('/api/clients'))
  expect(client).toMatchObject({ environment: 'sandbox', tier: 'api_partner_sandbox' })
  expect(client.secret).toMatch(/^cs_test_/)

  const metadata = printedBy((block) => block.includes('/.well-known/oauth-authorization-server'))
  expect(metadata.token_endpoint).toBe(`${t.config.publicUrl}/oauth/token`)

  const firstPage: FeedPage = printedBy((block) => block.includes('/events?limit='))
  expect(firstPage.data.map((event) => event.action)).toEqual(['org.created', 'client.created'])
  expect(firstPage.data.every((event) => event.orgId === client.orgId)).toBe(true)
  expect(firstPage.pagination.hasMore).toBe(false)

  // The poll with the stored cursor: exactly what happened since, none twice.
  const poll: FeedPage = printedBy((block) => block.includes('cursor=$CURSOR'))
  expect(poll.data.map((event) => event.action)).toEqual(['member.invited'])
  expect(poll.data[0]!.sequence).toBe(firstPage.data.at(-1)!.sequence + 1)
  expect(poll.pagination.cursor).not.toBe(firstPage.pagination.cursor)

  const members = printedBy((block) => block.includes('/members"'))
  expect(members.data).toHaveLength(1)

  // The short way: partner sign-up, its sandbox secret's token reads the feed at once, and the steps show it.
  const partnerFeed: FeedPage = printedBy((block) => block.includes('/events?action=partner.created'))
  expect(partnerFeed.data.map((event) => event.action)).toEqual(['partner.created'])
  const partner = printedBy((block) => block.includes('/api/partner"'))
  expect(partner).toMatchObject({ tier: 'api_partner', status: 'sandbox' })
  const integration = partner.onboarding.steps.find((step: { key: string }) => step.key === 'integration_testing')
  expect(integration.checks).toMatchObject({ tokenIssuedAt: expect.any(String), feedReadAt: expect.any(String) })
})
