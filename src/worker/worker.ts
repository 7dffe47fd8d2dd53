import type { FastifyBaseLogger } from 'fastify'
import { isConnectionLoss } from '../db/connection-loss.js'

/** One recurring duty of the worker (outbox delivery, sealing, payout rails, pruning). */
export interface Job {
  name: string
  /** How often to run, in milliseconds. */
  everyMs: number
  /** Does one round of work; returns how many items it handled (a busy job runs again at once). */
  run(): Promise<number>
  /** Asks a round under way to finish what it has started and take nothing more (a long round: webhook deliveries). */
  stop?(): void
}

export interface Worker {
  start(): void
  stop(): Promise<void>
  /** Runs every job once (tests, `oeuvre worker --once`). */
  runOnce(): Promise<Record<string, number>>
}

export function createWorker(jobs: readonly Job[], log: Pick<FastifyBaseLogger, 'error' | 'warn'>): Worker {
  const timers = new Map<string, NodeJS.Timeout>()
  const running = new Set<Promise<unknown>>()
  let stopped = true

  function schedule(job: Job, delay: number): void {
    if (stopped) return
    const timer = setTimeout(() => {
      const round = job
        .run()
        .then((handled) => schedule(job, handled > 0 ? 0 : job.everyMs))
        .catch((error: unknown) => {
          // The database being away is an outage to watch, not a bug: one line, without the stack (as requests log it).
          if (isConnectionLoss(error))
            log.warn({ job: job.name, reason: (error as Error).message }, 'worker job: database unavailable')
          else log.error({ err: error, job: job.name }, 'worker job failed')
          schedule(job, job.everyMs)
        })
      running.add(round)
      void round.finally(() => running.delete(round))
    }, delay)
    timer.unref()
    timers.set(job.name, timer)
  }

  return {
    start() {
      stopped = false
      for (const job of jobs) schedule(job, 0)
    },
    async stop() {
      stopped = true
      for (const timer of timers.values()) clearTimeout(timer)
      for (const job of jobs) job.stop?.()
      await Promise.allSettled([...running])
    },
    async runOnce() {
      const handled: Record<string, number> = {}
      for (const job of jobs) handled[job.name] = await job.run()
      return handled
    },
  }
}
