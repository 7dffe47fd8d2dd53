import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * One process per embedded data directory. PGlite is PostgreSQL in this process's memory, with
 * the files as its disk: a second process opening the same files sees none of the first one's
 * work, and each overwrites the other's. So the directory is held through a lock file created
 * exclusively beside it, naming its holder; a second process is refused, naming the holder. The
 * lock is released when the database closes and when the process exits; one left by a process
 * that is gone (killed, crashed) is taken over.
 */

/** Who holds a data directory: what the refusal tells the second process. */
export interface LockHolder {
  pid: number
  /** The holder's command line, as typed (`oeuvre serve`, `oeuvre revenue import ...`). */
  command: string
  /** When it took the lock (ISO 8601). */
  since: string
  /** Linux: when the process started (clock ticks after boot), so a reused pid is not taken for the holder. */
  processStart?: string
  /** Where a serving holder answers, once it listens. */
  url?: string
}

export class DataDirectoryInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.url ? `, serving ${holder.url}` : ''
    super(
      `the data directory ${dataDir} is in use by another Oeuvre process: pid ${holder.pid} (${holder.command}, since ${holder.since}${where}). ` +
        `Stop that process first, or do this through the running server's API or app.`,
    )
  }
}

export interface DataDirLock {
  readonly file: string
  release(): void
}

/** The locks this process holds, by file. */
const held = new Map<string, LockHolder>()

/** The process's own command line, as its user typed it. */
function commandLine(): string {
  const [script, ...args] = process.argv.slice(1)
  const name = script && /(^|[/\\])(main\.[jt]s|oeuvre(\.mjs)?)$/.test(script) ? 'oeuvre' : (script ?? 'node')
  return [name, ...args].join(' ')
}

/** Linux: the process's start time from /proc (field 22 of its stat line), or null where it cannot be read. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count the fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

/** Whether the process that wrote `holder` still runs (not merely some process with its pid). */
function alive(holder: LockHolder, file: string): boolean {
  // Our own pid: held by this process only if it took the lock itself (a container restarts its server as pid 1 again).
  if (holder.pid === process.pid) return held.has(file)
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const started = holder.processStart ? processStart(holder.pid) : null
  return started === null || started === holder.processStart
}

function readHolder(file: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as LockHolder
    return Number.isInteger(holder.pid) ? holder : null
  } catch {
    return null
  }
}

/** Creates `file` holding `holder`, or returns false when it exists; it never exists half-written. */
function create(file: string, holder: LockHolder): boolean {
  const draft = `${file}.${process.pid}.draft`
  writeFileSync(draft, `${JSON.stringify(holder)}\n`)
  try {
    linkSync(draft, file)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error
  } finally {
    unlinkSync(draft)
  }
  // A file system without hard links: an exclusive create, written just after.
  try {
    writeFileSync(file, `${JSON.stringify(holder)}\n`, { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** Removes a lock left by a process that is gone, unless another process replaced it meanwhile. */
function removeStale(file: string, seen: LockHolder | null): boolean {
  const moved = `${file}.${process.pid}.stale`
  try {
    renameSync(file, moved)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
  if (JSON.stringify(readHolder(moved)) === JSON.stringify(seen)) {
    unlinkSync(moved)
    return true
  }
  // A process took the directory between our read and the rename: give it its lock back.
  try {
    linkSync(moved, file)
  } finally {
    unlinkSync(moved)
  }
  return false
}

/**
 * Takes the lock of the data directory `dataDir` (the file `<dataDir>.lock` beside it), or throws
 * DataDirectoryInUse naming the process that holds it. `log` hears of a stale lock taken over.
 */
export function lockDataDirectory(
  dataDir: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): DataDirLock {
  const file = `${path.resolve(dataDir)}.lock`
  const started = processStart(process.pid)
  const holder: LockHolder = {
    pid: process.pid,
    command: commandLine(),
    since: new Date().toISOString(),
    ...(started ? { processStart: started } : {}),
  }
  for (let attempt = 0; ; attempt += 1) {
    if (create(file, holder)) break
    const current = readHolder(file)
    if (current && alive(current, file)) throw new DataDirectoryInUse(dataDir, current)
    if (attempt >= 5) throw new Error(`could not take the lock ${file}: other processes keep taking it`)
    if (removeStale(file, current))
      log(
        current
          ? `data directory lock ${file}: pid ${current.pid} (${current.command}, since ${current.since}) is gone; taking it over`
          : `data directory lock ${file}: unreadable (a process that stopped while taking it); taking it over`,
      )
  }
  held.set(file, holder)
  return holdUntilExit(file)
}

/** Releases the lock when the database closes, when the process exits, and on SIGINT or SIGTERM that nothing else handles. */
function holdUntilExit(file: string): DataDirLock {
  const release = () => {
    if (!held.has(file)) return
    held.delete(file)
    process.off('exit', release)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    // Only our own: never a lock another process took after ours was released.
    if (readHolder(file)?.pid === process.pid) unlinkSync(file)
  }
  const onSignal = (signal: NodeJS.Signals) => {
    // A handler of the process's own (serve's shutdown) closes the database, which releases the lock.
    if (process.listenerCount(signal) > 1) return
    release()
    process.kill(process.pid, signal)
  }
  process.on('exit', release)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return { file, release }
}

/** Adds where this process serves to the locks it holds, so a refused process can point at it. */
export function noteServingUrl(url: string): void {
  for (const [file, holder] of held) {
    const updated = { ...holder, url }
    held.set(file, updated)
    const draft = `${file}.${process.pid}.draft`
    writeFileSync(draft, `${JSON.stringify(updated)}\n`)
    renameSync(draft, file)
  }
}
