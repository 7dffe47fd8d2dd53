import { readFileSync } from 'node:fs'

/** CPU time from /proc (Linux): where a phase's cycles went. Zero where /proc is absent. */

/** USER_HZ: the unit of /proc times, 100 on every mainstream Linux build. */
const TICK_MS = 10

/** utime + stime of a process, in ms. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return 0
  }
}

/** CPU ms spent between two readings by the processes alive at both. */
export function cpuSpentMs(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0
  for (const [pid, ms] of after) if (before.has(pid)) spent += ms - before.get(pid)!
  return spent
}

/** The machine's busy and total CPU ms over all cores since boot (/proc/stat). */
export function machineCpuMs(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const total = fields.reduce((sum, value) => sum + value, 0)
    // idle and iowait are the not-busy columns.
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
    return { busy: (total - idle) * TICK_MS, total: total * TICK_MS }
  } catch {
    return { busy: 0, total: 0 }
  }
}

/** CPU per request of one side of a load (its server and the database's backends), summed over its segments. */
export class SideCpu {
  private serverMs = 0
  private postgresMs = 0
  private busyMs = 0
  private totalMs = 0
  private requests = 0

  /**
   * Runs `load` with the CPU of `serverPid` and of the database's backends (BackendCpu: a
   * backend its pool opens during the load counts from zero) read around it.
   */
  async measure<T extends { total: number }>(
    serverPid: number | undefined,
    backends: { lister: BackendLister; database: string },
    load: () => Promise<T>,
  ): Promise<T> {
    const postgres = new BackendCpu(backends.lister, backends.database)
    await postgres.start()
    const server = processCpuMs(serverPid)
    const machine = machineCpuMs()
    const result = await load()
    this.serverMs += processCpuMs(serverPid) - server
    const after = machineCpuMs()
    this.postgresMs += await postgres.stop()
    this.busyMs += after.busy - machine.busy
    this.totalMs += after.total - machine.total
    this.requests += result.total
    return result
  }

  /** µs per request of the server and of the backends, and how busy the machine was (0 to 1). */
  get figures(): { serverUsPerRequest: number; postgresUsPerRequest: number; machineBusy: number } {
    const per = (ms: number) => (this.requests ? Math.round((ms * 1000) / this.requests) : 0)
    return {
      serverUsPerRequest: per(this.serverMs),
      postgresUsPerRequest: per(this.postgresMs),
      machineBusy: this.totalMs ? this.busyMs / this.totalMs : 0,
    }
  }
}

/** What a BackendCpu needs to list the backends: a query as the scenario database's owner. */
export interface BackendLister {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>
}

/**
 * The CPU of the PostgreSQL backends serving one database while a command runs: its backends
 * are listed every 50 ms, a backend started since `start` counts from zero, one already there
 * from its reading at `start`, each up to its last reading (a backend that exits loses at most
 * its last 50 ms). The lister's own backend is left out.
 */
export class BackendCpu {
  private readonly first = new Map<number, number>()
  private readonly last = new Map<number, number>()
  private timer: NodeJS.Timeout | undefined
  private polling: Promise<void> = Promise.resolve()
  private started = new Date()

  constructor(
    private readonly lister: BackendLister,
    private readonly database: string,
  ) {}

  private async poll(): Promise<void> {
    const { rows } = await this.lister.query<{ pid: number; backend_start: Date }>(
      'select pid, backend_start from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [this.database],
    )
    for (const row of rows) {
      const ms = processCpuMs(row.pid)
      if (!this.first.has(row.pid)) this.first.set(row.pid, row.backend_start >= this.started ? 0 : ms)
      this.last.set(row.pid, Math.max(ms, this.last.get(row.pid) ?? 0))
    }
  }

  async start(): Promise<void> {
    this.started = new Date()
    await this.poll()
    this.timer = setInterval(() => {
      this.polling = this.polling.then(() => this.poll()).catch(() => undefined)
    }, 50)
  }

  /** Stops listing; the CPU ms the database's backends spent since `start`. */
  async stop(): Promise<number> {
    clearInterval(this.timer)
    await this.polling
    await this.poll().catch(() => undefined)
    let spent = 0
    for (const [pid, ms] of this.last) spent += ms - (this.first.get(pid) ?? 0)
    return spent
  }
}
