import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type { LoadSpec } from './load.js'

/**
 * A load generator's own process, forked by load.ts (`runAutocannon`) and kept for the bench's
 * run: each message `{ id, spec }` is one autocannon run (its programmatic API, for what its CLI
 * cannot do: a unique value per request, tokens taken in turn), answered `{ id, output }` with
 * autocannon's result, or `{ id, error }`. It exits when the bench does.
 */
interface RawRequest {
  headers: Record<string, string>
  body?: string
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: unknown) => void) => unknown

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const fill = (template: string, n: string) => template.replaceAll('{{n}}', n)

function load(spec: LoadSpec): Promise<unknown> {
  // Values unique to each request of this run, and unlike any other run's.
  const run = randomBytes(4).toString('hex')
  let counter = 0
  return new Promise<unknown>((resolve, reject) => {
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
}

process.on('message', (message: { id: number; spec: LoadSpec }) => {
  load(message.spec).then(
    (output) => process.send?.({ id: message.id, output }),
    (error: unknown) =>
      process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  )
})
process.on('disconnect', () => process.exit(0))
