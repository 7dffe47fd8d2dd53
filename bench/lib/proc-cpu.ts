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
