import { asOwner, type SqlBackend } from './sql-backend.js'

/**
 * What PostgreSQL's autovacuum does on a server, done for the embedded database (PGlite), which
 * runs no autovacuum: a table is analysed once enough of it changed since its last ANALYZE, and
 * vacuumed once enough of it is dead, by autovacuum's default thresholds.
 *
 * Without statistics the planner cannot tell two indexes that lead with org_id apart: it planned
 * the foreign-key check of every revenue allocation on `revenue_entries (org_id, catalog_id)`
 * instead of the primary key, reading every entry of the org for each allocation, and a
 * foreign-key check's plan is kept for the connection's life, so creating revenue got slower
 * with every entry. Without VACUUM, deleted rows (the webhook queue, expired keys) stay on disk.
 */
export const AUTOVACUUM_DEFAULTS = {
  analyzeThreshold: 50,
  analyzeScale: 0.1,
  vacuumThreshold: 50,
  vacuumScale: 0.2,
} as const

/**
 * How often the embedded database looks for tables to analyse or vacuum (autovacuum's naptime
 * is 60 s). The look is one query on pg_stat_user_tables; the thresholds decide how often
 * anything is done, so a short interval costs little and a new database gets its first
 * statistics within seconds of its first writes.
 */
export const EMBEDDED_MAINTENANCE_MS = 10_000

export interface MaintenanceRound {
  analyzed: string[]
  vacuumed: string[]
}

const { analyzeThreshold, analyzeScale, vacuumThreshold, vacuumScale } = AUTOVACUUM_DEFAULTS

/** The tables due, as quoted names, with what each needs. */
const DUE = `select name, needs_vacuum from (
  select format('%I.%I', schemaname, relname) as name,
    n_dead_tup > ${vacuumThreshold} + ${vacuumScale} * n_live_tup as needs_vacuum,
    n_mod_since_analyze > ${analyzeThreshold} + ${analyzeScale} * n_live_tup as needs_analyze
  from pg_stat_user_tables
) t where needs_vacuum or needs_analyze order by name`

/**
 * One round: every table due is vacuumed and/or analysed, one statement at a time (VACUUM cannot
 * run in a transaction), each on a session of its own so requests run between them.
 */
export async function maintainTables(backend: SqlBackend): Promise<MaintenanceRound> {
  const round: MaintenanceRound = { analyzed: [], vacuumed: [] }
  const due = (await asOwner(backend, DUE)).rows as { name: string; needs_vacuum: boolean }[]
  for (const table of due) {
    // VACUUM (ANALYZE) does both in one pass over the table.
    await asOwner(backend, table.needs_vacuum ? `vacuum (analyze) ${table.name}` : `analyze ${table.name}`)
    if (table.needs_vacuum) round.vacuumed.push(table.name)
    round.analyzed.push(table.name)
  }
  return round
}

export interface Maintenance {
  /** Stops scheduling rounds and waits for the one running, if any. */
  stop(): Promise<void>
}

/** Runs a maintenance round every `everyMs` until stopped; a failed round is reported and the next one tried. */
export function startMaintenance(
  backend: SqlBackend,
  options: { everyMs: number; onError: (error: unknown) => void; onRound?: (round: MaintenanceRound) => void },
): Maintenance {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = maintainTables(backend)
        .then((round) => options.onRound?.(round))
        .catch(options.onError)
        .finally(schedule)
    }, options.everyMs)
    // Never what keeps the process alive.
    timer.unref()
  }
  schedule()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
