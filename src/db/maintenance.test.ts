import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from './database.js'
import { maintainTables, startMaintenance, type MaintenanceRound } from './maintenance.js'
import { migrate } from './migrate.js'
import { createPgliteBackend } from './pglite-backend.js'
import { asOwner, type SqlBackend } from './sql-backend.js'
import { eventually } from '../../test/eventually.js'

// The embedded database's own maintenance: PGlite whatever DATABASE_URL says (a server runs autovacuum).

const ORG = 'org_01M81DC5EE3RFGA63QYHYTQN4E'
const USER = 'usr_01M81DC5AB24SHAWH50FGPP7S2'

/** A migrated PGlite: a copy of the run's template when there is one. */
async function migratedPglite(): Promise<SqlBackend> {
  const file = process.env.OEUVRE_PGLITE_TEMPLATE
  const backend = await createPgliteBackend('memory://', file ? { template: new Blob([await readFile(file)]) } : {})
  if (!file) await migrate(backend)
  return backend
}

/** Creators `from`..`to` of the org, inserted as the owner. */
const insertCreators = (from: number, to: number) => `insert into creators
  (org_id, id, name, kind, roles, payout_currency, minimum_payout_micros, opening_balance_micros, created_at, created_by)
  select '${ORG}', 'crt_' || lpad(g::text, 26, '0'), 'Creator ' || g, 'person', '{composer}', 'EUR', 0, 0, now(), '${USER}'
  from generate_series(${from}, ${to}) g`

/** PostgreSQL reports table statistics at most once a second; this makes the next report immediate. */
async function flushStatistics(backend: SqlBackend): Promise<void> {
  await asOwner(backend, 'select pg_stat_force_next_flush()')
  await asOwner(backend, 'select 1')
}

/** The plan of a foreign-key check on creators (generic, as the check keeps it for the connection's life). */
async function foreignKeyCheckPlan(backend: SqlBackend): Promise<string> {
  const session = await backend.acquireOwner()
  try {
    await session.simple('set plan_cache_mode = force_generic_plan')
    await session.simple(
      'prepare fk_check(text, text) as select 1 from only creators x where $1 = org_id and $2 = id for key share of x',
    )
    const plan = await session.simple(`explain execute fk_check('org_a', 'e1')`)
    await session.simple('deallocate fk_check; reset plan_cache_mode')
    return plan.rows.map((row) => String(Object.values(row)[0])).join('\n')
  } finally {
    session.release()
  }
}

describe('embedded database maintenance', () => {
  let backend: SqlBackend

  beforeAll(async () => {
    backend = await migratedPglite()
    await asOwner(
      backend,
      `insert into orgs values ('${ORG}', 'Org', 'production', 'us-east', '${USER}', now(), '${USER}')`,
    )
  })
  afterAll(async () => {
    await backend.end()
  })

  it('does nothing when no table has changed enough', async () => {
    await asOwner(backend, insertCreators(1, 10))
    await flushStatistics(backend)
    expect(await maintainTables(backend)).toEqual({ analyzed: [], vacuumed: [] })
  })

  it('analyses a grown table, after which its foreign-key checks use the primary key instead of an index leading with org_id', async () => {
    // Without statistics the planner cannot tell creators_newest from the primary key, and takes the
    // one that reads every creator of the org.
    expect(await foreignKeyCheckPlan(backend)).toContain('creators_newest')
    await asOwner(backend, insertCreators(11, 5000))
    await flushStatistics(backend)

    const round = await maintainTables(backend)

    expect(round).toEqual({ analyzed: ['public.creators'], vacuumed: [] })
    const stats = await asOwner(
      backend,
      `select last_analyze is not null as analysed from pg_stat_user_tables where relname = 'creators'`,
    )
    expect(stats.rows[0]).toEqual({ analysed: true })
    expect(await foreignKeyCheckPlan(backend)).toContain('creators_pkey')
    // Analysed: nothing is due until the table changes again.
    await flushStatistics(backend)
    expect(await maintainTables(backend)).toEqual({ analyzed: [], vacuumed: [] })
  })

  it('vacuums (and analyses) a table whose rows were deleted, which frees their space for reuse', async () => {
    await asOwner(backend, `delete from creators where id > 'crt_' || lpad('10', 26, '0')`)
    await flushStatistics(backend)
    const dead = await asOwner(backend, `select n_dead_tup from pg_stat_user_tables where relname = 'creators'`)
    expect(Number(dead.rows[0]!.n_dead_tup)).toBeGreaterThan(4000)

    expect(await maintainTables(backend)).toEqual({ analyzed: ['public.creators'], vacuumed: ['public.creators'] })

    await flushStatistics(backend)
    const after = await asOwner(
      backend,
      `select n_dead_tup::int, last_vacuum is not null as vacuumed from pg_stat_user_tables where relname = 'creators'`,
    )
    expect(after.rows[0]).toEqual({ n_dead_tup: 0, vacuumed: true })
  })

  it('runs rounds on a schedule, reports a failed round and goes on, and stops', async () => {
    await asOwner(backend, insertCreators(5001, 5200))
    await flushStatistics(backend)
    const rounds: MaintenanceRound[] = []
    const errors: unknown[] = []
    let failOnce = true
    const flaky: SqlBackend = {
      ...backend,
      acquireOwner: () => {
        if (failOnce) {
          failOnce = false
          return Promise.reject(new Error('connection lost'))
        }
        return backend.acquireOwner()
      },
    }
    const done = new Promise<void>((resolve) => {
      const maintenance = startMaintenance(flaky, {
        everyMs: 1,
        onError: (error) => errors.push(error),
        onRound: (round) => {
          rounds.push(round)
          void maintenance.stop().then(resolve)
        },
      })
    })
    await done
    expect(errors).toHaveLength(1)
    expect(rounds[0]).toEqual({ analyzed: ['public.creators'], vacuumed: [] })
  })
})

describe('a database in a data directory on PGlite', () => {
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-maintenance-'))
  })
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  it('is maintained by the process that opens it, and closing stops the maintenance', async () => {
    const db = await openDatabase({ databaseUrl: null, dataDir, maintenanceMs: 5 })
    await asOwner(
      db.backend,
      `create table probe (id int primary key); insert into probe select generate_series(1, 500)`,
    )
    await flushStatistics(db.backend)
    // Rounds come every 5 ms: wait (bounded) for one to have analysed the table.
    const analysed = async () => {
      const stats = await asOwner(
        db.backend,
        `select last_analyze is not null as analysed from pg_stat_user_tables where relname = 'probe'`,
      )
      return stats.rows[0]!.analysed === true
    }
    await eventually(analysed, 'a maintenance round to analyse probe')
    expect(await analysed()).toBe(true)
    await db.close()
    // Closed, maintenance included: the directory opens again (PGlite allows one holder at a time).
    const again = await openDatabase({ databaseUrl: null, dataDir, maintenanceMs: 0 })
    expect((await asOwner(again.backend, 'select count(*)::int as n from probe')).rows[0]).toEqual({ n: 500 })
    await again.close()
  })
})
