import { Agent } from 'undici'

/**
 * The webhooks floor: `count` POSTs of `bodyBytes` JSON bytes to `url` by a bare undici
 * loop, `concurrency` at a time over keep-alive connections, with the headers the worker
 * sends (same names, same lengths; fixed values, nothing signed). Each POST is dispatched
 * with callbacks and its answer collected, as the worker does (undici's leanest way; its
 * `request()` costs about twice the CPU). Prints `{"ms": <elapsed>, ...}` as its last line.
 * Usage: node --import tsx bench/floors/webhook-floor.ts <url> <count> <concurrency> <bodyBytes> <deliveryId> <eventType>
 */
const [
  url,
  countArg,
  concurrencyArg,
  bytesArg,
  deliveryId = 'dlv_00000000000000000000000000',
  eventType = 'creator.created',
] = process.argv.slice(2)
const count = Number(countArg)
const concurrency = Number(concurrencyArg)
const body = JSON.stringify({ padding: 'x'.repeat(Math.max(0, Number(bytesArg) - 15)) })
const headers = {
  'content-type': 'application/json',
  'user-agent': 'Oeuvre-Webhooks/1.0',
  'x-service-event': eventType,
  'x-service-delivery': deliveryId,
  'x-service-signature': `sha256=${'0'.repeat(64)}`,
  'webhook-id': deliveryId,
  'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
  'webhook-signature': `v1,${'A'.repeat(43)}=`,
}
/** Untimed: warms this process, the connections and the receiver (which then serves the worker warm too). */
const WARM_UP = Math.min(count, 2000)

const target = new URL(url!)
const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 })

/** One POST; resolves to the status once the whole answer is in. */
function post(): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0
    const chunks: Buffer[] = []
    agent.dispatch(
      { origin: target.origin, path: target.pathname, method: 'POST', headers, body },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk)
        },
        onResponseEnd() {
          // The worker keeps the answer as text (the delivery log): decoded here too.
          Buffer.concat(chunks).toString('utf8')
          resolve(status)
        },
        onResponseError(_controller, error) {
          reject(error)
        },
      },
    )
  })
}

let next = 0
let failed = 0
async function lane(total: number): Promise<void> {
  while (next < total) {
    next += 1
    if ((await post()) !== 200) failed += 1
  }
}

await Promise.all(Array.from({ length: concurrency }, () => lane(WARM_UP)))
next = 0
failed = 0
const cpu = process.cpuUsage()
const started = performance.now()
await Promise.all(Array.from({ length: concurrency }, () => lane(count)))
const ms = performance.now() - started
const used = process.cpuUsage(cpu)
process.stdout.write(
  `${JSON.stringify({ ms, failed, bodyBytes: body.length, warmUp: WARM_UP, cpuMs: (used.user + used.system) / 1000 })}\n`,
)
await agent.close()
