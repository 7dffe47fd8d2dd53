import { readFile, writeFile } from 'node:fs/promises'
import { Oeuvre, NotFoundError } from '@oeuvre/sdk'

const oeuvre = new Oeuvre({
  baseUrl: 'https://eu-west.oeuvre.example', // your deployment
  clientId: process.env.OEUVRE_CLIENT_ID,
  clientSecret: process.env.OEUVRE_CLIENT_SECRET,
  scopes: ['events:read', 'creators:read', 'creators:write', 'catalog:write'],
})
const orgId = process.env.OEUVRE_ORG_ID!

// 1. Write: a retried create never creates twice (one Idempotency-Key for all its attempts).
const ada = await oeuvre.creators.create(orgId, {
  name: 'Ada Lovelace',
  kind: 'person',
  roles: ['composer'],
  payoutCurrency: 'EUR',
})
await oeuvre.catalog.create(orgId, {
  kind: 'work',
  title: 'Analytical Engine Suite',
  splits: [{ creatorId: ada.id, role: 'composer', shareBps: 10_000 }],
})

// 2. Read: await a list for its first page, or for-await over every item of every page.
const page = await oeuvre.creators.list(orgId, { limit: 10 })
console.log(page.data.length, page.hasNextPage())
for await (const creator of oeuvre.creators.list(orgId)) console.log(creator.name)

// 3. Follow the org's event feed, resuming where the last run stopped (keep the cursor with your data).
const cursor = await readFile('cursor.txt', 'utf8').catch(() => undefined)
const onCursor = (next: string) => writeFile('cursor.txt', next)
for await (const event of oeuvre.events.poll(orgId, { cursor, onCursor, stopWhenIdle: true })) {
  console.log(event.sequence, event.action)
}

// 4. Errors are typed, with the problem's fields.
try {
  await oeuvre.catalog.get(orgId, 'cat_01JD2YB6X8Q0W3M5N7P9R1T3V5')
} catch (error) {
  if (error instanceof NotFoundError) console.log(error.status, error.code, error.requestId)
  else throw error
}
