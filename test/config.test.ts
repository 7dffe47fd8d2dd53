import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.js'

const run = promisify(execFile)

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      redisUrl: null,
      redisNamespace: null,
      region: 'eu-west',
      publicUrl: 'http://127.0.0.1:3000',
      worker: 'inline',
      webhooksAllowLoopback: false,
      webhookRetrySchedule: null,
      deprecation: null,
      requestLog: { flushMs: 1000, batchRows: 500, bufferRows: 20_000 },
    })
    expect(config.dataDir).toMatch(/data$/)
    expect(Object.isFrozen(config)).toBe(true)
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['REGION', 'mars-north'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_NAMESPACE', 'two words'],
    ['REDIS_NAMESPACE', 'a:b'],
    ['REDIS_NAMESPACE', 'x'.repeat(65)],
    ['WORKER', 'sometimes'],
    ['WEBHOOKS_ALLOW_LOOPBACK', 'yes please'],
    ['WEBHOOK_RETRY_SCHEDULE', '5,soon'],
    ['SEAL_EVERY_EVENTS', '0'],
    ['LOG_LEVEL', 'loud'],
    ['SECRETS_KEY', 'short'],
    ['REQUEST_LOG_FLUSH_MS', '5'],
    ['REQUEST_LOG_BATCH_ROWS', '5001'],
    ['REQUEST_LOG_BUFFER_ROWS', '0'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `))
  })

  it('requires the sunset at least 12 months after the deprecation', () => {
    expect(() => loadConfig({ V1_DEPRECATION_DATE: '2027-01-01', V1_SUNSET_DATE: '2027-06-01' })).toThrow(
      /V1_SUNSET_DATE/,
    )
    expect(loadConfig({ V1_DEPRECATION_DATE: '2027-01-01', V1_SUNSET_DATE: '2028-01-01' }).deprecation).toMatchObject({
      date: '2027-01-01T00:00:00.000Z',
      sunset: '2028-01-01T00:00:00.000Z',
    })
  })

  it('stops the process with one clear line naming the variable', async () => {
    const failure = await run('npx', ['tsx', 'src/main.ts', 'serve'], {
      env: { ...process.env, PORT: 'eighty' },
    }).catch((error: { code: number; stderr: string }) => error)
    expect((failure as { code: number }).code).toBe(1)
    const lines = (failure as { stderr: string }).stderr
      .split('\n')
      .filter((line) => line && !line.includes('npm warn'))
    expect(lines).toEqual(['configuration error: PORT: must be a whole number, got "eighty"'])
  }, 60_000)
})
