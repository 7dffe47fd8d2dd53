import { describe, expect, it } from 'vitest'
import { eventually } from '../../test/eventually.js'
import { createWorker, type Job } from './worker.js'

/** A log that keeps its lines. */
function recordingLog() {
  const lines: { level: 'warn' | 'error'; fields: Record<string, unknown>; msg: string }[] = []
  return {
    lines,
    warn: (fields: Record<string, unknown>, msg: string) => void lines.push({ level: 'warn', fields, msg }),
    error: (fields: Record<string, unknown>, msg: string) => void lines.push({ level: 'error', fields, msg }),
  }
}

function failingOnce(name: string, error: Error): Job & { runs: number } {
  const job = {
    name,
    everyMs: 60_000,
    runs: 0,
    async run() {
      job.runs += 1
      if (job.runs === 1) throw error
      return 0
    },
  }
  return job
}

describe('the worker', () => {
  it('logs a lost database connection as one warning line without the stack, and any other failure as an error', async () => {
    const lost = failingOnce('sealing', Object.assign(new Error('Connection terminated unexpectedly'), {}))
    const refused = failingOnce(
      'deliveries',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    )
    const bug = failingOnce('payouts', new TypeError('undefined is not a function'))
    const log = recordingLog()
    const worker = createWorker([lost, refused, bug], log as never)
    worker.start()
    try {
      await eventually(() => log.lines.length === 3, 'three log lines')
    } finally {
      await worker.stop()
    }
    const byJob = Object.fromEntries(log.lines.map((line) => [line.fields.job, line]))
    expect(byJob.sealing).toEqual({
      level: 'warn',
      fields: { job: 'sealing', reason: 'Connection terminated unexpectedly' },
      msg: 'worker job: database unavailable',
    })
    expect(byJob.deliveries).toMatchObject({ level: 'warn', fields: { reason: 'connect ECONNREFUSED' } })
    expect(byJob.payouts).toMatchObject({ level: 'error', msg: 'worker job failed' })
    expect(byJob.payouts?.fields.err).toBeInstanceOf(TypeError)
  })
})
