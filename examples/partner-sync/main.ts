import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Oeuvre, WebhookVerificationError } from '@oeuvre/sdk'
import { loadMirror, revenueTotals, type MirrorState } from './mirror.js'
import { PartnerSync } from './sync.js'

/**
 * partner-sync: mirrors an org's catalog and revenue into a JSON file.
 *
 *   OEUVRE_URL, OEUVRE_CLIENT_ID, OEUVRE_CLIENT_SECRET, OEUVRE_ORG_ID   (required)
 *   MIRROR_FILE      where the mirror and its feed cursor live (default ./partner-sync.json)
 *   PORT, HOST       the webhook receiver (default 0 = any free port, 127.0.0.1)
 *   WEBHOOK_URL      the receiver's public address, to register (default http://HOST:PORT/webhooks)
 *   POLL_SECONDS     how often the feed is read as well (default 60)
 *
 * `--once`: read the feed from the stored cursor to its end, save, print a summary and exit.
 * Otherwise: catch up, register the webhook endpoint, apply deliveries as they come and read
 * the feed every POLL_SECONDS (it catches whatever a missed delivery left out), until SIGINT/SIGTERM.
 */

const SCOPES = ['events:read', 'catalog:read', 'revenue:read', 'webhooks:read', 'webhooks:write']

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set`)
  return value
}

function summary(state: MirrorState) {
  return {
    orgId: state.orgId,
    sequence: state.sequence,
    catalogEntries: Object.keys(state.catalog).length,
    revenueEntries: Object.keys(state.revenue).length,
    revenueTotals: revenueTotals(state),
  }
}

async function readBody(request: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function main(): Promise<void> {
  const orgId = required('OEUVRE_ORG_ID')
  const file = process.env.MIRROR_FILE ?? 'partner-sync.json'
  const oeuvre = new Oeuvre({
    baseUrl: required('OEUVRE_URL'),
    clientId: required('OEUVRE_CLIENT_ID'),
    clientSecret: required('OEUVRE_CLIENT_SECRET'),
    scopes: SCOPES,
  })
  const sync = new PartnerSync(oeuvre, await loadMirror(file, orgId), file)
  const applied = await sync.catchUp()
  if (process.argv.includes('--once')) {
    console.log(JSON.stringify({ applied, ...summary(sync.state) }))
    return
  }

  // Deliveries are applied one at a time, in arrival order.
  let queue = Promise.resolve()
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET' && request.url === '/mirror') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ ...summary(sync.state), catalog: sync.state.catalog, revenue: sync.state.revenue }))
      return
    }
    if (request.method !== 'POST' || request.url !== '/webhooks') {
      response.writeHead(404).end()
      return
    }
    queue = queue.then(async () => {
      try {
        await sync.receive(await readBody(request), request.headers)
        response.writeHead(204).end()
      } catch (error) {
        // A delivery that does not verify is refused; anything else is retried by the service.
        response.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end()
        if (!(error instanceof WebhookVerificationError)) console.error(error)
      }
    })
  })
  const host = process.env.HOST ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), host, resolve))
  const { port } = server.address() as AddressInfo
  await sync.ensureWebhook(process.env.WEBHOOK_URL ?? `http://${host}:${port}/webhooks`)
  console.log(`listening on http://${host}:${port} (webhook ${sync.state.webhook!.id})`)

  const stop = new AbortController()
  const poll = setInterval(
    () => {
      queue = queue.then(() => sync.catchUp(stop.signal).then(() => undefined, console.error))
    },
    Number(process.env.POLL_SECONDS ?? 60) * 1000,
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      stop.abort()
      clearInterval(poll)
      server.close()
      server.closeAllConnections()
      void queue.then(() => console.log(JSON.stringify(summary(sync.state))))
    })
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
