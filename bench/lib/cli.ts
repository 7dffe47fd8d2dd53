import { execFile, spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { BackendCpu, machineCpuMs, processCpuMs, type BackendLister } from './proc-cpu.js'
import { benchNodeArgs, ROOT } from './servers.js'

let built: Promise<void> | null = null

/** The floors that run as commands of their own, as Oeuvre's CLI does (bench/floors/<name>.ts). */
const COMMAND_FLOORS = ['import-floor', 'payout-floor', 'verify-floor', 'webhook-floor'] as const
export type CommandFloor = (typeof COMMAND_FLOORS)[number]

/**
 * Compiles the CLI once per bench run (`npm run build`): commands are measured as
 * `oeuvre` runs them when installed, from dist/ (bin/oeuvre.mjs prefers it), not through
 * tsx's on-the-fly compilation (about 1.1 s more start-up and 50 MB more resident). The
 * command floors are compiled the same way (to dist/floors/, packages left to node_modules),
 * so both sides of a command's measurement pay a plain node start-up.
 */
export function buildOnce(): Promise<void> {
  built ??= promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT }).then(async () => {
    await build({
      absWorkingDir: ROOT,
      entryPoints: COMMAND_FLOORS.map((name) => `bench/floors/${name}.ts`),
      outdir: 'dist/floors',
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    })
  })
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
  /** CPU ms of the database's backends while it ran, when a BackendLister was given; 0 otherwise. */
  postgresCpuMs: number
}

/** Where to read the CPU of the backends a command uses: the scenario database's owner pool and its name. */
export interface BackendsOf {
  lister: BackendLister
  database: string
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
export function runOeuvreCli(args: string[], env: Record<string, string>, backends?: BackendsOf): Promise<CliRun> {
  return runCompiled('dist/main.js', args, { LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env }, backends)
}

/** Runs a command floor (bench/floors/<name>.ts, compiled) with `env`; throws unless it exits 0. */
export function runFloorCli(
  name: CommandFloor,
  args: string[],
  env: Record<string, string>,
  backends?: BackendsOf,
): Promise<CliRun> {
  return runCompiled(`dist/floors/${name}.js`, args, env, backends)
}

async function runCompiled(
  script: string,
  args: string[],
  env: Record<string, string>,
  backends: BackendsOf | undefined,
): Promise<CliRun> {
  await buildOnce()
  const backendCpu = backends ? new BackendCpu(backends.lister, backends.database) : null
  await backendCpu?.start()
  const started = performance.now()
  const machineBefore = machineCpuMs()
  // BENCH_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') profiles the command as it does the servers.
  const child = spawn(process.execPath, [...benchNodeArgs(), script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
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
  const postgresCpuMs = (await backendCpu?.stop()) ?? 0
  const machineAfter = machineCpuMs()
  const machineTotal = machineAfter.total - machineBefore.total
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`)
  return {
    code,
    stdout,
    stderr,
    ms,
    peakRssMiB: Math.round(peakKiB / 102.4) / 10,
    cpuMs,
    machineBusy: machineTotal > 0 ? (machineAfter.busy - machineBefore.busy) / machineTotal : 0,
    postgresCpuMs,
  }
}
