import { rmSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { clientToken, ownerWithOrg, post, type Owner } from './accounts.js'
import { CHAINED_EVENT_CHUNK, chainedEventCsv, ORG_EVENT_COPY_COLUMNS, type ChainHead } from './events.js'
import { alternate, loadSeconds, runLoad, throughput, type LoadResult, type LoadSpec } from './load.js'
import { processCpuMs } from './proc-cpu.js'
import type { Measurement, ScenarioContext } from './scenario.js'
import { startChild, startOeuvre, type Child, type Cleanup } from './servers.js'

/**
 * Oeuvre's embedded mode (DATABASE_URL unset: PGlite in DATA_DIR, in-process rate buckets) for
 * the scenarios' PGlite variants. One process at a time may open a PGlite directory: a
 * variant seeds with no server running, then gives its floor a copy of the directory.
 */

/** The PGlite variants run with the PostgreSQL ones unless BENCH_PGLITE=0. */
export const pgliteWanted = (): boolean => process.env.BENCH_PGLITE !== '0'

/** A temporary DATA_DIR, removed after `work` whatever happens. */
export async function withDataDir<T>(label: string, work: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `oeuvre-bench-pglite-${label}-`))
  try {
    return await work(dataDir)
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** Where src/db/database.ts keeps the PGlite database of a DATA_DIR. */
export const pgliteDirectory = (dataDir: string): string => path.join(dataDir, 'pglite')

/** `oeuvre serve` as on a fresh machine: no DATABASE_URL, no REDIS_URL, PGlite in `dataDir`. */
export function startOeuvreOnPglite(dataDir: string): Promise<Child> {
  return startOeuvre('', null, { DATA_DIR: dataDir })
}

/** A floor script (bench/floors/floor-server.ts) over the PGlite database of `dataDir`: no DATABASE_URL, DATA_DIR set. */
export function startPgliteFloor(script: string, dataDir: string): Promise<Child> {
  return startChild([script], {
    env: { DATABASE_URL: '', DATA_DIR: dataDir },
    ready: /listening on (\S+)/,
    timeoutMs: 60_000,
  })
}

/** What every PGlite variant starts from: a DATA_DIR with one owner, a sandbox org and an events:read client of that org. */
export interface PgliteTemplate {
  dataDir: string
  owner: Owner
  /** Its tier is the sandbox one: a variant that needs more raises it (raiseClientTier) in its copy. */
  client: { id: string; token: string }
}

let template: Promise<PgliteTemplate> | null = null

/**
 * Made once per bench run over HTTP by an `oeuvre serve` on a new DATA_DIR (initdb and every
 * migration: about 10 s, paid once instead of once per variant), removed when the process exits.
 */
export function pgliteTemplate(context: ScenarioContext): Promise<PgliteTemplate> {
  template ??= makeTemplate(context).catch((error: unknown) => {
    template = null
    throw error
  })
  return template
}

async function makeTemplate(context: ScenarioContext): Promise<PgliteTemplate> {
  const started = Date.now()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-pglite-template-'))
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }))
  const oeuvre = await startOeuvreOnPglite(dataDir)
  try {
    const owner = await ownerWithOrg(oeuvre.ready, 'pglite')
    const scopes = ['events:read']
    const client = await post<{ id: string; secret: string }>(
      `${oeuvre.ready}/api/clients`,
      { name: 'Bench integrator', scopes },
      { token: owner.token },
    )
    const token = await clientToken(oeuvre.ready, client, scopes)
    await oeuvre.stop()
    context.log(
      `PGlite: template DATA_DIR made in ${((Date.now() - started) / 1000).toFixed(1)} s (initdb, migrations, an owner, an org, a client)`,
    )
    return { dataDir, owner, client: { id: client.id, token } }
  } finally {
    await oeuvre.stop()
  }
}

/** A copy of the template in a temporary DATA_DIR of its own, removed after `work` whatever happens; logs what the variant took. */
export async function withTemplateCopy<T>(
  context: ScenarioContext,
  label: string,
  work: (dataDir: string, template: PgliteTemplate) => Promise<T>,
): Promise<T> {
  const started = Date.now()
  const made = await pgliteTemplate(context)
  const result = await withCopyOf(made.dataDir, label, (dataDir) => work(dataDir, made))
  context.log(`PGlite variant: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return result
}

/** Opens the PGlite database of a DATA_DIR (no server may have it open) as its only user, the superuser: the table owner. */
export async function withPgliteOwner<T>(dataDir: string, work: (db: PGlite) => Promise<T>): Promise<T> {
  const db = await PGlite.create(pgliteDirectory(dataDir))
  try {
    return await work(db)
  } finally {
    await db.close()
  }
}

/** Rows per COPY when seeding PGlite: each COPY from a blob has a cost of its own. */
const PGLITE_COPY_ROWS = 5000

/**
 * seedChainedEvents on PGlite: the same events and hashes, COPYed from blobs of about
 * PGLITE_COPY_ROWS rows (PGlite has no COPY FROM STDIN stream), in one transaction. Returns
 * the org's last sequence.
 */
export async function seedChainedEventsPglite(
  db: PGlite,
  orgId: string,
  userId: string,
  count: number,
): Promise<number> {
  const last = await db.transaction(async (tx) => {
    const found = await tx.query<{ sequence: number | bigint; hash: string }>(
      'select sequence, hash from org_event_heads where org_id = $1 for update',
      [orgId],
    )
    const head: ChainHead = { sequence: Number(found.rows[0]!.sequence), hash: found.rows[0]!.hash }
    // Every event names the one org whose head is locked here: no foreign-key check per row (the owner is a superuser).
    await tx.exec('set local session_replication_role = replica')
    // The generator's small chunks, as bytes (nothing for the collector to copy), COPYed some thousands of rows at a time.
    let pending: Buffer[] = []
    let rows = 0
    const copy = async () => {
      if (pending.length)
        await tx.query(`copy org_events (${ORG_EVENT_COPY_COLUMNS}) from '/dev/blob' with (format csv)`, [], {
          blob: new Blob(pending),
        })
      pending = []
      rows = 0
    }
    for (const chunk of chainedEventCsv(orgId, userId, head, count)) {
      pending.push(Buffer.from(chunk))
      rows += CHAINED_EVENT_CHUNK
      if (rows >= PGLITE_COPY_ROWS) await copy()
    }
    await copy()
    await tx.query('update org_event_heads set sequence = $2, hash = $3 where org_id = $1', [
      orgId,
      head.sequence,
      head.hash,
    ])
    return head.sequence
  })
  // Statistics as autovacuum would leave them on a table this size.
  await db.exec('analyze org_events')
  return last
}

/** Load seconds of a PGlite variant: 5 s at scale 1 (half the PostgreSQL runs': the variants share the bench's budget), never under 2 s. */
export const pgliteLoadSeconds = (scale: number): number => loadSeconds(scale, 5)

/** A measured load and the CPU the server spent on it (PGlite runs inside the server: all of a request's work is its process's). */
export interface ServedLoad {
  result: LoadResult
  cpuUsPerRequest: number
}

/** One side of an alternated PGlite measurement: its server and its load. */
export interface ServedSide {
  server: Child
  spec: Omit<LoadSpec, 'url' | 'durationSeconds'>
}

/**
 * Both sides as the PostgreSQL scenarios measure them (`alternate`: warmed for `warmUp`
 * seconds each, then floor, Oeuvre, Oeuvre, floor), each with its server's CPU per request
 * over its two segments: the machine's speed drifts within a run, and a floor block followed by
 * an Oeuvre block would hand the drift to the ratio.
 */
export async function alternateServed(
  label: string,
  path: string,
  warmUp: number,
  seconds: number,
  floor: ServedSide,
  oeuvre: ServedSide,
): Promise<{ floor: ServedLoad; oeuvre: ServedLoad; segments: string }> {
  for (const side of [floor, oeuvre])
    await runLoad({ ...side.spec, url: side.server.ready + path, durationSeconds: warmUp })
  const measured = (side: ServedSide) => {
    const served = { cpuMs: 0, requests: 0 }
    const load = async (durationSeconds: number): Promise<LoadResult> => {
      const cpuBefore = processCpuMs(side.server.process.pid)
      const result = await runLoad({ ...side.spec, url: side.server.ready + path, durationSeconds })
      served.cpuMs += processCpuMs(side.server.process.pid) - cpuBefore
      served.requests += result.total
      return result
    }
    return { served, load }
  }
  const floorSide = measured(floor)
  const oeuvreSide = measured(oeuvre)
  const alternated = await alternate(label, seconds, floorSide.load, oeuvreSide.load)
  const perRequest = ({ cpuMs, requests }: { cpuMs: number; requests: number }) => Math.round((cpuMs * 1000) / requests)
  return {
    floor: { result: alternated.floor, cpuUsPerRequest: perRequest(floorSide.served) },
    oeuvre: { result: alternated.oeuvre, cpuUsPerRequest: perRequest(oeuvreSide.served) },
    segments: alternated.segments,
  }
}

/**
 * A requests/s measurement (both sides' p99 alongside) with each server's CPU per request: on
 * the shared cores the rates move with the other load, the CPU a request costs much less.
 */
export function servedThroughput(
  name: string,
  floor: ServedLoad,
  oeuvre: ServedLoad,
  target: number,
  extra: Record<string, number | string>,
): Measurement {
  return {
    ...throughput(name, floor.result, oeuvre.result, target, {
      floorCpuUsPerRequest: floor.cpuUsPerRequest,
      oeuvreCpuUsPerRequest: oeuvre.cpuUsPerRequest,
      ...extra,
    }),
    cpuRatio: floor.cpuUsPerRequest / oeuvre.cpuUsPerRequest,
  }
}

/** A copy of `dataDir` in a temporary directory of its own (a second process needs its own PGlite directory), removed after `work`. */
export function withCopyOf<T>(dataDir: string, label: string, work: (copy: string) => Promise<T>): Promise<T> {
  return withDataDir(label, async (copy) => {
    await cp(dataDir, copy, { recursive: true })
    return work(copy)
  })
}

/** Starts children at once (each over its own directory); every one that starts is stopped by `cleanup`, also when another fails. */
export function startTogether(cleanup: Cleanup, ...starts: Promise<Child>[]): Promise<Child[]> {
  for (const starting of starts) cleanup.add(async () => (await starting.catch(() => null))?.stop())
  return Promise.all(starts)
}
