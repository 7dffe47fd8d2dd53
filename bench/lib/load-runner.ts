import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type { LoadSpec } from './load.js'

/**
 * The load generator's own process (`node --import tsx bench/lib/load-runner.ts <spec json>`):
 * autocannon's programmatic API, for what its CLI cannot do (a unique value per request,
 * tokens taken in turn). Prints autocannon's result as JSON on stdout.
 */
interface RawRequest {
  headers: Record<string, string>
  body?: string
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: unknown) => void) => unknown

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon
const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec
const run = randomBytes(4).toString('hex')
let counter = 0

const fill = (template: string, n: string) => template.replaceAll('{{n}}', n)

const result = await new Promise<unknown>((resolve, reject) => {
  autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      duration: spec.durationSeconds,
      method: spec.method ?? 'GET',
      headers: spec.headers ?? {},
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      requests: [
        {
          setupRequest(request: RawRequest) {
            counter += 1
            const n = `${run}-${counter}`
            const headers: Record<string, string> = {}
            for (const [name, value] of Object.entries(request.headers)) headers[name] = fill(value, n)
            // Tokens in turn: each caller's rate bucket sees its share of the load.
            if (spec.tokens?.length) headers.authorization = `Bearer ${spec.tokens[counter % spec.tokens.length]}`
            return { ...request, headers, ...(request.body !== undefined ? { body: fill(request.body, n) } : {}) }
          },
        },
      ],
    },
    (error, output) => (error ? reject(error) : resolve(output)),
  )
})
process.stdout.write(`${JSON.stringify(result)}\n`)
