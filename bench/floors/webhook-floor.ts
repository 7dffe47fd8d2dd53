import { createHmac } from 'node:crypto'
import pg from 'pg'
import { Agent } from 'undici'

/**
 * The webhooks floor: the least a correct delivery loop must do. It claims a batch of due rows
 * of `floor_deliveries` (FOR UPDATE SKIP LOCKED, moved out of `pending` in the same statement),
 * signs each body with HMAC-SHA256 (the `sha256=` signature and the Standard Webhooks one), POSTs
 * it at `concurrency` over keep-alive connections (undici's dispatch, the worker's way), and
 * records each attempt (`floor_attempts`) and outcome in one statement per batch. The next
 * batch is claimed while the last one's POSTs finish.
 * Usage: node dist/floors/webhook-floor.js <url> <concurrency> <secretHex>.
 * Prints `{"ms":..,"delivered":..,"failed":..,"cpuMs":..}` (the sending's, start-up left out).
 */
const [url, concurrencyArg, secretHex] = process.argv.slice(2)
if (!url || !concurrencyArg || !secretHex) throw new Error('usage: webhook-floor <url> <concurrency> <secretHex>')
const concurrency = Number(concurrencyArg)
const secret = Buffer.from(secretHex, 'hex')
const CLAIM = 100

const CLAIM_DUE = `
  update floor_deliveries d set status = 'sending', updated_at = now()
  where d.id in (select id from floor_deliveries where status = 'pending' and next_attempt_at <= now()
                 order by next_attempt_at limit $1 for update skip locked)
  returning d.id, d.payload, d.attempt_count`

const RECORD = `
  with outcome as (
    select * from unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
      as o (id, attempt, started_at, http_status, latency_ms, response_body)
  ), attempt as (
    insert into floor_attempts (delivery_id, attempt, started_at, status, http_status, latency_ms, response_body)
    select id, attempt, started_at, case when http_status between 200 and 299 then 'succeeded' else 'failed' end,
           http_status, latency_ms, response_body from outcome
  )
  update floor_deliveries d set status = case when o.http_status between 200 and 299 then 'succeeded' else 'pending' end,
    attempt_count = o.attempt, last_http_status = o.http_status, updated_at = now(),
    next_attempt_at = case when o.http_status between 200 and 299 then null else now() + interval '1 minute' end,
    finished_at = case when o.http_status between 200 and 299 then now() end
  from outcome o where d.id = o.id`

interface Delivery {
  id: string
  payload: string
  attempt_count: number
}

interface Outcome {
  id: string
  attempt: number
  startedAt: Date
  status: number
  latencyMs: number
  body: string
}

const target = new URL(url)
const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 })

/** One signed POST; resolves to its outcome once the whole answer is in. */
function send(delivery: Delivery): Promise<Outcome> {
  const startedAt = new Date()
  const started = performance.now()
  const timestamp = Math.floor(startedAt.getTime() / 1000)
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Oeuvre-Webhooks/1.0',
    'x-service-delivery': delivery.id,
    'x-service-signature': `sha256=${createHmac('sha256', secret).update(delivery.payload).digest('hex')}`,
    'webhook-id': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', secret).update(`${delivery.id}.${timestamp}.${delivery.payload}`).digest('base64')}`,
  }
  return new Promise((resolve) => {
    let status = 0
    const chunks: Buffer[] = []
    const done = (code: number, body: string) =>
      resolve({
        id: delivery.id,
        attempt: delivery.attempt_count + 1,
        startedAt,
        status: code,
        latencyMs: Math.round(performance.now() - started),
        body,
      })
    agent.dispatch(
      { origin: target.origin, path: target.pathname, method: 'POST', headers, body: delivery.payload },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk)
        },
        onResponseEnd() {
          done(status, Buffer.concat(chunks).toString('utf8'))
        },
        onResponseError(_controller, error) {
          done(0, error.message)
        },
      },
    )
  })
}

const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
await client.connect()
// Statements one at a time on the one connection: claims and records queue behind each other.
let database: Promise<unknown> = Promise.resolve()
const serial = <T>(work: () => Promise<T>): Promise<T> => {
  const result = database.then(work)
  database = result.catch(() => undefined)
  return result
}
const record = (outcomes: Outcome[]) =>
  serial(() =>
    client.query({
      name: 'record',
      text: RECORD,
      values: [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.attempt),
        outcomes.map((o) => o.startedAt),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.latencyMs),
        outcomes.map((o) => o.body),
      ],
    }),
  )

const started = performance.now()
const cpu = process.cpuUsage()
let delivered = 0
let failed = 0
const queue: Delivery[] = []
let claiming: Promise<boolean> | null = null
/** Claims the next batch (once at a time); false when nothing is due. */
const claim = (): Promise<boolean> =>
  (claiming ??= serial(async () => {
    const { rows } = await client.query<Delivery>({ name: 'claim', text: CLAIM_DUE, values: [CLAIM] })
    queue.push(...rows)
    return rows.length > 0
  }).finally(() => (claiming = null)))

const recording: Promise<unknown>[] = []
let outcomes: Outcome[] = []
async function lane(): Promise<void> {
  for (;;) {
    // Claim ahead: the next batch is fetched while this one is still being sent.
    if (queue.length < concurrency) void claim()
    const delivery = queue.shift()
    if (!delivery) {
      if (!(await claim()) && queue.length === 0) return
      continue
    }
    const outcome = await send(delivery)
    if (outcome.status >= 200 && outcome.status < 300) delivered += 1
    else failed += 1
    outcomes.push(outcome)
    if (outcomes.length >= CLAIM) {
      recording.push(record(outcomes))
      outcomes = []
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, lane))
if (outcomes.length > 0) recording.push(record(outcomes))
await Promise.all(recording)
const ms = performance.now() - started
// The sending's own CPU, start-up left out (as the worker's is).
const used = process.cpuUsage(cpu)
process.stdout.write(`${JSON.stringify({ ms, delivered, failed, cpuMs: (used.user + used.system) / 1000 })}\n`)
await agent.close()
await client.end()
