import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DataDirectoryInUse, lockDataDirectory, noteServingUrl, type LockHolder } from './data-dir-lock.js'

let root: string
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-lock-'))
})
afterAll(() => rm(root, { recursive: true, force: true }))

let n = 0
/** A data directory path of its own (its lock file goes beside it). */
function dataDir(): string {
  n += 1
  const parent = path.join(root, `data-${n}`)
  mkdirSync(parent)
  return path.join(parent, 'pglite')
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

function plant(dir: string, holder: Partial<LockHolder> | string): void {
  writeFileSync(`${dir}.lock`, typeof holder === 'string' ? holder : JSON.stringify(holder))
}

const holderOf = (dir: string) => JSON.parse(readFileSync(`${dir}.lock`, 'utf8')) as LockHolder

/** Takes the lock expecting a take-over; the log lines it wrote. */
function takeOver(dir: string): string[] {
  const lines: string[] = []
  const lock = lockDataDirectory(dir, (line) => lines.push(line))
  expect(holderOf(dir).pid).toBe(process.pid)
  lock.release()
  return lines
}

describe('the data directory lock', () => {
  it('is a file beside the directory naming this process, refuses a second taker, and is gone once released', () => {
    const dir = dataDir()
    const lock = lockDataDirectory(dir)
    expect(lock.file).toBe(`${dir}.lock`)
    const holder = holderOf(dir)
    expect(holder.pid).toBe(process.pid)
    expect(Date.parse(holder.since)).toBeGreaterThan(0)
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryInUse)
    noteServingUrl('http://127.0.0.1:4321')
    expect(holderOf(dir).url).toBe('http://127.0.0.1:4321')
    lock.release()
    expect(existsSync(lock.file)).toBe(false)
    lockDataDirectory(dir).release()
  })

  it('refuses while its holder runs, naming its pid, command and start, and what to do', () => {
    const dir = dataDir()
    // The process that started this test runner: alive for as long as the test runs.
    plant(dir, {
      pid: process.ppid,
      command: 'oeuvre serve',
      since: '2026-11-22T10:15:30.123Z',
      url: 'http://127.0.0.1:3000',
    })
    let refusal: unknown
    try {
      lockDataDirectory(dir)
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(DataDirectoryInUse)
    const message = (refusal as Error).message
    expect(message).toContain(
      `pid ${process.ppid} (oeuvre serve, since 2026-11-22T10:15:30.123Z, serving http://127.0.0.1:3000)`,
    )
    expect(message).toMatch(/Stop that process first, or do this through the running server's API/)
    expect(message).not.toContain('\n')
    // Refused, it left the holder's file as it was.
    expect(holderOf(dir).pid).toBe(process.ppid)
  })

  it('takes over a lock whose holder is gone, saying so', async () => {
    const dir = dataDir()
    const pid = await deadPid()
    plant(dir, { pid, command: 'oeuvre revenue import s.csv', since: '2026-11-22T10:15:30.123Z' })
    const lines = takeOver(dir)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`pid ${pid} (oeuvre revenue import s.csv, since 2026-11-22T10:15:30.123Z) is gone`)
  })

  it('takes over a lock of its own pid that it did not take (a container restarts its server with the same pid)', () => {
    const dir = dataDir()
    plant(dir, { pid: process.pid, command: 'oeuvre serve', since: '2026-11-22T10:15:30.123Z' })
    expect(takeOver(dir)).toHaveLength(1)
  })

  // Start times come from /proc: Linux only.
  if (existsSync('/proc/self/stat'))
    it('takes over a lock whose pid now belongs to another process (a different start time)', () => {
      const dir = dataDir()
      plant(dir, { pid: process.ppid, command: 'oeuvre serve', since: '2026-11-22T10:15:30.123Z', processStart: '1' })
      expect(takeOver(dir)).toHaveLength(1)
    })

  it('takes over a lock file left unreadable', () => {
    const dir = dataDir()
    plant(dir, '')
    expect(takeOver(dir)[0]).toMatch(/unreadable/)
  })
})
