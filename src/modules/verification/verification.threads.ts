import { Worker } from 'node:worker_threads'

/**
 * Worker threads that walk ranges of a chain for `verifyChain`'s parallel walk
 * (src/modules/verification/verification.worker.ts). A thread loads its modules and opens its
 * connections as soon as it starts (about 0.3 s), so `oeuvre audit verify` starts them first
 * and they get ready on the other cores while this thread loads its own modules and reads
 * the chain's head; started only once the ranges were known, the other ranges began about
 * that much after the first. This module loads nothing but node:worker_threads for that reason.
 */

/** What a worker thread is given to walk one range. */
export interface RangeTask {
  orgId: string
  /** The range is verified + 1 .. target. */
  verified: number
  target: number
  headSequence: number
  batch: number
}

/** Where a walk stands: the last sequence verified and its stored hash, or the first broken link it met. */
export interface WalkEnd {
  verified: number
  previousHash: string
  broken: { sequence: number; eventId: string | null; reason: string } | null
}

/** A worker's answer: its walk's end, or `null` when the event its range starts after is missing (an earlier range reports that). */
export type RangeResult = { ok: true; end: WalkEnd | null } | { ok: false; message: string }

/** A message to a worker thread: a range to walk, or the end of its work. */
export type WalkerMessage = { task: RangeTask } | { close: true }

/** One worker thread: walks one range at a time. */
export interface RangeWalker {
  walk(task: RangeTask): Promise<RangeResult>
}

/** Started worker threads on one server, handed out one walk at a time. */
export interface RangeWalkers {
  readonly databaseUrl: string
  /** An idle walker: a started one while there is one, else a new one. */
  take(): RangeWalker
  /** Gives a walker back once its walk has answered. */
  give(walker: RangeWalker): void
  /** Ends a walker whose walk will not be waited for (a walk stopped early). */
  abandon(walker: RangeWalker): void
  /** Ends every walker: idle ones close their connections and exit; how many did, and how many had ended already or had to be stopped. */
  close(): Promise<{ closed: number; stopped: number }>
}

/**
 * Worker threads start from this script: it registers tsx's loader when the code runs from its
 * TypeScript sources (tests, `npm start` without a build), then loads the worker module.
 */
const WORKER_BOOT = `const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  await import(workerData.entry);
})();`

/** How long a closing walker may take to close its connections before it is stopped. */
const CLOSE_GRACE_MS = 5_000

export interface WalkerOptions {
  /** How long a closing walker may take before it is stopped (default CLOSE_GRACE_MS; Infinity waits for it). */
  closeGraceMs?: number
}

interface ThreadWalker extends RangeWalker {
  /** True when the thread exited by itself within the grace, false when it had to be stopped. */
  close(): Promise<boolean>
  stop(): void
}

function startWalker(databaseUrl: string, closeGraceMs: number): ThreadWalker {
  const fromSources = import.meta.url.endsWith('.ts')
  const entry = new URL(`./verification.worker.${fromSources ? 'ts' : 'js'}`, import.meta.url).href
  const loader = fromSources ? import.meta.resolve('tsx/esm/api') : null
  const worker = new Worker(WORKER_BOOT, { eval: true, workerData: { databaseUrl, entry, loader } })
  let exited = false
  const exit = new Promise<number>((resolve) => worker.once('exit', (code) => ((exited = true), resolve(code))))
  // An error ends the thread: the walk under way (if any) hears of it through `exit` or `error` below.
  worker.on('error', () => undefined)
  return {
    walk(task) {
      if (exited) return Promise.resolve({ ok: false, message: 'the verify worker has exited' })
      return new Promise<RangeResult>((resolve, reject) => {
        const onMessage = (message: RangeResult) => (cleanup(), resolve(message))
        const onError = (error: unknown) => (cleanup(), reject(error))
        const onExit = (code: number) => (
          cleanup(),
          reject(new Error(`the verify worker exited with code ${code} before answering`))
        )
        const cleanup = () => {
          worker.off('message', onMessage)
          worker.off('error', onError)
          worker.off('exit', onExit)
        }
        worker.on('message', onMessage)
        worker.on('error', onError)
        worker.on('exit', onExit)
        worker.postMessage({ task } satisfies WalkerMessage)
      })
    },
    async close() {
      if (exited) return false
      let stopped = false
      worker.postMessage({ close: true } satisfies WalkerMessage)
      const grace = Number.isFinite(closeGraceMs)
        ? setTimeout(() => ((stopped = true), void worker.terminate()), closeGraceMs)
        : undefined
      await exit
      clearTimeout(grace)
      return !stopped
    },
    stop() {
      void worker.terminate()
    },
  }
}

/** Starts `count` worker threads on `databaseUrl` (more are started on demand). */
export function startRangeWalkers(databaseUrl: string, count: number, options: WalkerOptions = {}): RangeWalkers {
  const closeGraceMs = options.closeGraceMs ?? CLOSE_GRACE_MS
  const idle: ThreadWalker[] = Array.from({ length: Math.max(0, count) }, () => startWalker(databaseUrl, closeGraceMs))
  const taken = new Set<ThreadWalker>()
  return {
    databaseUrl,
    take() {
      const walker = idle.shift() ?? startWalker(databaseUrl, closeGraceMs)
      taken.add(walker)
      return walker
    },
    give(walker) {
      const thread = walker as ThreadWalker
      if (taken.delete(thread)) idle.push(thread)
    },
    abandon(walker) {
      const thread = walker as ThreadWalker
      taken.delete(thread)
      thread.stop()
    },
    async close() {
      const busy = [...taken]
      for (const thread of busy) thread.stop()
      taken.clear()
      const closed = await Promise.all(idle.splice(0).map((thread) => thread.close()))
      const graceful = closed.filter(Boolean).length
      return { closed: graceful, stopped: busy.length + closed.length - graceful }
    },
  }
}
