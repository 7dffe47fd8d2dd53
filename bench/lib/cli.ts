import { execFile, spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { machineCpuMs, processCpuMs } from './proc-cpu.js'
import { benchNodeArgs, ROOT } from './servers.js'

let built: Promise<void> | null = null

/**
 * Compiles the CLI once per bench run (`npm run build`): commands are measured as
 * `oeuvre` runs them when installed, from dist/ (bin/oeuvre.mjs prefers it), not through
 * tsx's on-the-fly compilation (about 1.1 s more start-up and 50 MB more resident).
 */
export function buildOnce(): Promise<void> {
  built ??= promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT }).then(() => undefined)
  return built
}

/** One `oeuvre <command>` run to completion: what it printed, how long it took, its peak memory. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
  ms: number
  /** Peak resident set (VmHWM of /proc/<pid>/status, sampled until exit), in MiB; 0 where /proc is absent. */
  peakRssMiB: number
  /** The command's CPU (user + system, /proc/<pid>/stat) at its last sample before exit, in ms; 0 where /proc is absent. */
  cpuMs: number
  /** How busy the whole machine was (both cores) from spawn to exit, 0 to 1. */
  machineBusy: number
}

async function highWaterKiB(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Runs `node dist/main.js <args>` (the compiled CLI, built first) with `env`; throws unless it exits 0. */
export async function runOeuvreCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  await buildOnce()
  const started = performance.now()
  const machineBefore = machineCpuMs()
  // BENCH_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') profiles the command as it does the servers.
  const child = spawn(process.execPath, [...benchNodeArgs(), 'dist/main.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let peakKiB = 0
  let cpuMs = 0
  // VmHWM and CPU time are monotonic: the last samples before exit are the figures, give or take the final 50 ms.
  const sampler = setInterval(() => {
    if (!child.pid) return
    cpuMs = Math.max(cpuMs, processCpuMs(child.pid))
    void highWaterKiB(child.pid).then((kib) => (peakKiB = Math.max(peakKiB, kib)))
  }, 50)
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)))
  clearInterval(sampler)
  const ms = performance.now() - started
  const machineAfter = machineCpuMs()
  const machineTotal = machineAfter.total - machineBefore.total
  if (code !== 0) throw new Error(`oeuvre ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`)
  return {
    code,
    stdout,
    stderr,
    ms,
    peakRssMiB: Math.round(peakKiB / 102.4) / 10,
    cpuMs,
    machineBusy: machineTotal > 0 ? (machineAfter.busy - machineBefore.busy) / machineTotal : 0,
  }
}
