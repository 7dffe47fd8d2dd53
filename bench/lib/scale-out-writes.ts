import type { ScenarioDatabase } from './database.js'
import { runSpreadLoad, type SpreadResult } from './load-spread.js'
import { answeredByStatus, answeredSince } from './node-metrics.js'
import { cpuSpentMs, machineCpuMs, processCpuMs } from './proc-cpu.js'
import type { Child } from './servers.js'

/** The scale-out drill's write load: one org's revenue lines through one API node or both, with where the CPU went. */

/** Write connections in every phase, through one node or both: the same load, so the phases compare. */
export const WRITE_CONNECTIONS = 10
export const WRITE_ROUTE = '/api/revenue'

export interface WriteTarget {
  orgId: string
  catalogId: string
  /** Session tokens taken in turn (one finance member per connection: the session tier is per user). */
  memberTokens: string[]
  nodes: [Child, Child]
  workers: [Child, Child]
}

/** One side of the comparison: 2xx answers over the time its runs took, and CPU ms per answered write. */
export interface WriteSide {
  ok: number
  seconds: number
  perSecond: number
  p99Ms: number
  cpuPerWriteMs: { nodes: number; workers: number; postgres: number }
  /** Busy share of all the machine's cores while the side ran (everything, other users included). */
  machineBusy: number
  /** The scenario database's backends, sampled every 100 ms: running a statement, and of those waiting for a lock. */
  backends: { active: number; lockWaiting: number }
}

export interface WriteComparison {
  one: WriteSide
  two: WriteSide
  /** Every run, warm-ups included: their 2xx are writes the org's log must hold. */
  runs: SpreadResult[]
  /** 201s answered by node A and node B while both took the load. */
  split: [Record<number, number>, Record<number, number>]
  /** How long the last deliveries took to drain after the last load. */
  lagMs: number
  phaseSeconds: number
  /** Each measured phase in order: which nodes took the load, its 2xx per second, and the 201s each node answered. */
  phases: { through: string; perSecond: number; answered: [number, number] }[]
}

/** A revenue line; `{{n}}` makes each request's line and idempotency key unique. */
export function writeLoad(target: WriteTarget, nodes: Child[], durationSeconds: number): Promise<SpreadResult> {
  const body = JSON.stringify({
    catalogId: target.catalogId,
    source: 'Drill DSP',
    type: 'stream',
    periodStart: '2026-09-01',
    periodEnd: '2026-09-30',
    territory: 'DE',
    units: 1000,
    amount: '10.000001',
    currency: 'EUR',
    statementRef: 'DRILL-2026-09',
    lineRef: '{{n}}',
  })
  return runSpreadLoad({
    urls: nodes.map((node) => node.ready + WRITE_ROUTE),
    method: 'POST',
    connections: WRITE_CONNECTIONS,
    durationSeconds,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'drill-{{n}}' },
    body,
    tokens: target.memberTokens,
  })
}

/** Waits until the org has no pending delivery; the ms it took. */
export async function awaitDrained(db: ScenarioDatabase, orgId: string, timeoutMs: number): Promise<number> {
  const started = Date.now()
  for (;;) {
    const { rows } = await db.owner.query<{ n: string }>(
      `select count(*) as n from webhook_deliveries where org_id = $1 and status = 'pending'`,
      [orgId],
    )
    if (Number(rows[0]!.n) === 0) return Date.now() - started
    if (Date.now() - started > timeoutMs)
      throw new Error(`scale-out: ${rows[0]!.n} deliveries still pending after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

interface CpuReading {
  nodes: number
  workers: number
  postgres: Map<number, number>
  machine: { busy: number; total: number }
}

/** CPU of the children and of the scenario database's own backends (not other databases' on the same server). */
async function readCpu(target: WriteTarget, db: ScenarioDatabase): Promise<CpuReading> {
  const sum = (children: Child[]) => children.reduce((total, child) => total + processCpuMs(child.process.pid), 0)
  const { rows } = await db.owner.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database()',
  )
  const postgres = new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)]))
  return { nodes: sum(target.nodes), workers: sum(target.workers), postgres, machine: machineCpuMs() }
}

interface BackendSample {
  samples: number
  active: number
  lockWaiting: number
}

/** Samples pg_stat_activity of the scenario database until stopped: how many backends work, and how many wait for a lock. */
function sampleBackends(db: ScenarioDatabase): () => Promise<BackendSample> {
  const total: BackendSample = { samples: 0, active: 0, lockWaiting: 0 }
  let sampling: Promise<void> = Promise.resolve()
  const timer = setInterval(() => {
    sampling = db.owner
      .query<{ active: string; waiting: string }>(
        `select count(*) filter (where state = 'active') as active, count(*) filter (where state = 'active' and wait_event_type = 'Lock') as waiting
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      )
      .then(({ rows }) => {
        total.samples += 1
        total.active += Number(rows[0]!.active)
        total.lockWaiting += Number(rows[0]!.waiting)
      })
  }, 100)
  return async () => {
    clearInterval(timer)
    await sampling
    return total
  }
}

interface Phase {
  run: SpreadResult
  backends: BackendSample
  nodes: number
  workers: number
  postgres: number
  busy: number
  total: number
}

function side(phases: Phase[]): WriteSide {
  const total = (pick: (phase: Phase) => number) => phases.reduce((sum, phase) => sum + pick(phase), 0)
  const ok = total((p) => p.run.ok2xx)
  const seconds = total((p) => (p.run.finishMs - p.run.startMs) / 1000)
  return {
    ok,
    seconds,
    perSecond: ok / seconds,
    p99Ms: Math.max(...phases.map((p) => p.run.p99Ms)),
    cpuPerWriteMs: {
      nodes: total((p) => p.nodes) / ok,
      workers: total((p) => p.workers) / ok,
      postgres: total((p) => p.postgres) / ok,
    },
    machineBusy:
      total((p) => p.busy) /
      Math.max(
        1,
        total((p) => p.total),
      ),
    backends: {
      active:
        total((p) => p.backends.active) /
        Math.max(
          1,
          total((p) => p.backends.samples),
        ),
      lockWaiting:
        total((p) => p.backends.lockWaiting) /
        Math.max(
          1,
          total((p) => p.backends.samples),
        ),
    },
  }
}

/**
 * The same write load through one node (the floor) and through both, in eight phases
 * alternating as A, AB, AB, B, AB, A, B, AB: drift in what else the machine runs weighs
 * on both sides alike, and each node serves alone as often as the other (both equally
 * warm). Each phase lasts 30% of `seconds` and starts with no delivery pending.
 * Warm-up first: 2 s on each node, then ANALYZE, as the create scenario does after its own.
 */
export async function measureWrites(
  target: WriteTarget,
  db: ScenarioDatabase,
  seconds: number,
): Promise<WriteComparison> {
  const [nodeA, nodeB] = target.nodes
  const drainBudgetMs = 60_000 + seconds * 2_000
  const phaseSeconds = Math.max(1, Math.round(seconds * 0.3))
  const runs: SpreadResult[] = [await writeLoad(target, [nodeA], 2), await writeLoad(target, [nodeB], 2)]
  // Statistics, as autovacuum leaves them within a database's first minute. Without them node A's
  // backends, whose first writes met empty tables, planned the allocations' foreign-key check on
  // an index that reads every entry of the org, and A served less than half what B did, slower
  // with every phase (B's first writes came 2 s later, into tables that were no longer empty).
  await db.owner.query('analyze')
  const one: Phase[] = []
  const two: Phase[] = []
  const split: [Record<number, number>, Record<number, number>] = [{}, {}]
  const phases: WriteComparison['phases'] = []
  for (const nodes of [
    [nodeA],
    [nodeA, nodeB],
    [nodeA, nodeB],
    [nodeB],
    [nodeA, nodeB],
    [nodeA],
    [nodeB],
    [nodeA, nodeB],
  ]) {
    const both = nodes.length === 2
    await awaitDrained(db, target.orgId, drainBudgetMs)
    const answeredBefore = await Promise.all(
      target.nodes.map((node) => answeredByStatus(node.ready, 'POST', WRITE_ROUTE)),
    )
    const cpuBefore = await readCpu(target, db)
    const stopSampling = sampleBackends(db)
    const run = await writeLoad(target, nodes, phaseSeconds)
    const backends = await stopSampling()
    const cpuAfter = await readCpu(target, db)
    const answeredAfter = await Promise.all(
      target.nodes.map((node) => answeredByStatus(node.ready, 'POST', WRITE_ROUTE)),
    )
    runs.push(run)
    const byNode = [0, 1].map((i) => answeredSince(answeredBefore[i]!, answeredAfter[i]!))
    phases.push({
      through: nodes.map((node) => (node === nodeA ? 'A' : 'B')).join(''),
      perSecond: run.ok2xx / ((run.finishMs - run.startMs) / 1000),
      answered: [byNode[0]![201] ?? 0, byNode[1]![201] ?? 0],
    })
    ;(both ? two : one).push({
      run,
      backends,
      nodes: cpuAfter.nodes - cpuBefore.nodes,
      workers: cpuAfter.workers - cpuBefore.workers,
      postgres: cpuSpentMs(cpuBefore.postgres, cpuAfter.postgres),
      busy: cpuAfter.machine.busy - cpuBefore.machine.busy,
      total: cpuAfter.machine.total - cpuBefore.machine.total,
    })
    if (!both) continue
    for (const i of [0, 1] as const) {
      for (const [status, count] of Object.entries(byNode[i]!))
        split[i][Number(status)] = (split[i][Number(status)] ?? 0) + count
    }
  }
  const lagMs = await awaitDrained(db, target.orgId, drainBudgetMs)
  return { one: side(one), two: side(two), runs, split, lagMs, phaseSeconds, phases }
}
