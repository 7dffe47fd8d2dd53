import { appendFileSync } from 'node:fs'
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SERVER_NODE_FLAGS } from '../../src/platform/node-flags.js'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A child process started by a scenario; `stop` ends it (SIGTERM, then SIGKILL). */
export interface Child {
  process: ChildProcess
  /** The first capture group of the ready pattern (a URL for servers). */
  ready: string
  /** Everything the child printed so far (for error messages and results). */
  output(): string
  stop(): Promise<void>
}

export interface StartOptions {
  env?: Record<string, string>
  /** The line that says the child is ready; its first group becomes `ready`. */
  ready: RegExp
  timeoutMs?: number
  /** Flags for node itself, before the script (e.g. --cpu-prof). */
  nodeArgs?: string[]
}

/** Extra node flags for the processes a bench starts, from BENCH_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'). */
export function benchNodeArgs(): string[] {
  return process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
}

/** Starts `node <args>` (TypeScript through tsx) and waits for its ready line. */
export async function startChild(args: string[], options: StartOptions): Promise<Child> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${args.join(' ')} not ready after ${options.timeoutMs ?? 30_000} ms:\n${output}`)),
      options.timeoutMs ?? 30_000,
    )
    const onData = (chunk: Buffer) => {
      // BENCH_SERVER_LOG=/tmp/slog: each process's output also goes to /tmp/slog.<pid> (e.g. --trace-gc's lines).
      if (process.env.BENCH_SERVER_LOG) appendFileSync(`${process.env.BENCH_SERVER_LOG}.${child.pid}`, chunk)
      output += chunk.toString()
      const match = options.ready.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1] ?? match[0])
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${args.join(' ')} exited with ${code} before it was ready:\n${output}`))
    })
  }).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { process: child, ready, output: () => output, stop }
}

/** `oeuvre serve` on a free port of 127.0.0.1 over the scenario database; resolves to its base URL. */
export function startOeuvre(
  databaseUrl: string,
  redisUrl: string | null,
  env: Record<string, string> = {},
): Promise<Child> {
  return startChild(['src/main.ts', 'serve'], {
    env: {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKER: 'off',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      REDIS_URL: redisUrl ?? '',
      // Keys a server generates on first start go to a bench directory, not the working tree's ./data.
      DATA_DIR: path.join(os.tmpdir(), 'oeuvre-bench'),
      ...env,
    },
    ready: /listening on (\S+)/,
    // Started as `npm start` starts it; e.g. BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the servers under load.
    nodeArgs: [...SERVER_NODE_FLAGS, ...benchNodeArgs()],
  })
}

/** Stops what a scenario started, last first, whatever happened. */
export class Cleanup {
  private readonly steps: (() => Promise<void>)[] = []

  add(step: () => Promise<void>): void {
    this.steps.push(step)
  }

  async run(): Promise<void> {
    for (const step of this.steps.reverse()) {
      await step().catch((error: unknown) => process.stderr.write(`cleanup failed: ${String(error)}\n`))
    }
  }
}
