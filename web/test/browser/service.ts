import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { SERVER_NODE_FLAGS } from '../../../src/platform/node-flags.js'

export interface RunningService {
  url: string
  /** The embedded data directory the service runs on. */
  dataDir: string
  output: () => string
  /** Stops the service and removes its data directory, unless `keepData` (to run the CLI on it, then start again). */
  stop: (options?: { keepData?: boolean }) => Promise<void>
}

const SERVICE_ENV = { DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' }

/** Runs the `oeuvre` CLI on a data directory (the service must be stopped: the directory is held by one process). */
export function runCli(dataDir: string, args: readonly string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: { ...process.env, ...SERVICE_ENV, DATA_DIR: dataDir },
    encoding: 'utf8',
  })
}

/**
 * The real service as a user starts it (`oeuvre serve`), on a fresh embedded data directory,
 * PORT=0, with the demo org seeded; its URL is read from the line it prints.
 */
export async function startService(
  env: Record<string, string> = {},
  options: { dataDir?: string } = {},
): Promise<RunningService> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'oeuvre-browser-')))
  const child: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/main.ts', 'serve'],
    {
      env: {
        ...process.env,
        ...SERVICE_ENV,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line in 90 s:\n${text}`)), 90_000)
    child.once('exit', (code) => reject(new Error(`oeuvre serve exited with ${code}:\n${text}`)))
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(text)
      if (match && text.includes('demo login')) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  })
  return {
    url,
    dataDir,
    output: () => text,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      if (!keepData) await rm(dataDir, { recursive: true, force: true })
    },
  }
}
