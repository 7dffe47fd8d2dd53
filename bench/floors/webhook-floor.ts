import { request } from 'undici'

/**
 * The webhooks floor: `count` POSTs of `bodyBytes` JSON bytes to `url` by a bare undici
 * loop, `concurrency` at a time. Prints `{"ms": <elapsed>}` as its last line.
 * Usage: node --import tsx bench/floors/webhook-floor.ts <url> <count> <concurrency> <bodyBytes>
 */
const [url, countArg, concurrencyArg, bytesArg] = process.argv.slice(2)
const count = Number(countArg)
const concurrency = Number(concurrencyArg)
const body = JSON.stringify({ padding: 'x'.repeat(Math.max(0, Number(bytesArg) - 15)) })

let next = 0
let failed = 0
async function lane(total: number): Promise<void> {
  while (next < total) {
    next += 1
    const response = await request(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    await response.body.dump()
    if (response.statusCode !== 200) failed += 1
  }
}

// Untimed warm-up (connections, JIT), as the worker's process is warm when it starts sending.
await Promise.all(Array.from({ length: concurrency }, () => lane(concurrency * 4)))
next = 0
failed = 0
const started = performance.now()
await Promise.all(Array.from({ length: concurrency }, () => lane(count)))
const ms = performance.now() - started
process.stdout.write(`${JSON.stringify({ ms, failed, bodyBytes: body.length })}\n`)
