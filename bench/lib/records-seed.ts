import type pg from 'pg'

/** Bulk SQL seeding of the record families as the table owner: what thousands of API calls would leave behind. */

/** Creator i's id (so seeds and checks agree without reading back). */
export const creatorId = (i: number): string => `crt_bench${String(i).padStart(10, '0')}`
/** Catalog entry i's id, and its ISRC (QZ + BEN + 26 + 5 digits: up to 100,000 entries). */
export const entryId = (i: number): string => `cat_bench${String(i).padStart(10, '0')}`
export const entryIsrc = (i: number): string => `QZBEN26${String(i).padStart(5, '0')}`

/** `count` person creators paid in EUR, minimum payout 0. */
export async function seedCreators(owner: pg.Pool, orgId: string, userId: string, count: number): Promise<void> {
  await owner.query(
    `insert into creators (org_id, id, name, kind, roles, payout_currency, minimum_payout_micros, opening_balance_micros, created_at, created_by)
     select $1, 'crt_bench' || lpad(i::text, 10, '0'), 'Creator ' || i, 'person', array['composer'], 'EUR', 0, 0, now(), $2
     from generate_series(0, $3::int - 1) as i`,
    [orgId, userId, count],
  )
}

/**
 * `count` active recordings with ISRCs, each split among three creators (3333/3333/3334 bps)
 * taken round-robin from `creators`.
 */
export async function seedRecordings(
  owner: pg.Pool,
  orgId: string,
  userId: string,
  count: number,
  creators: number,
): Promise<void> {
  if (count > 100_000) throw new Error('entryIsrc has room for 100,000 entries')
  await owner.query(
    `insert into catalog_entries (org_id, id, kind, title, isrc, territories, created_at, created_by)
     select $1, 'cat_bench' || lpad(i::text, 10, '0'), 'recording', 'Recording ' || i, 'QZBEN26' || lpad(i::text, 5, '0'), array['WORLD'], now(), $2
     from generate_series(0, $3::int - 1) as i`,
    [orgId, userId, count],
  )
  await owner.query(
    `insert into catalog_splits (org_id, catalog_id, position, creator_id, role, share_bps)
     select $1, 'cat_bench' || lpad(i::text, 10, '0'), p, 'crt_bench' || lpad(((i * 3 + p) % $3::int)::text, 10, '0'),
            case p when 0 then 'composer' when 1 then 'lyricist' else 'arranger' end, case p when 2 then 3334 else 3333 end
     from generate_series(0, $2::int - 1) as i, generate_series(0, 2) as p`,
    [orgId, count, creators],
  )
}

/** In the client's open transaction, foreign-key triggers skipped when the bench's database user is a superuser (withoutForeignKeyChecks). */
export async function skipForeignKeyChecks(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ rolsuper: boolean }>(
    'select rolsuper from pg_roles where rolname = current_user',
  )
  if (rows[0]?.rolsuper) await client.query('set local session_replication_role = replica')
}

/**
 * Bulk rows that are valid by construction (every id they name was just seeded), inserted in one
 * transaction with the foreign-key triggers skipped (`session_replication_role = replica`) when
 * the bench's database user is a superuser, and checked as usual otherwise: the checks were
 * about half of the payout scenario's seeding time, which the bench's 10 minutes have to hold.
 */
async function withoutForeignKeyChecks(owner: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await owner.connect()
  try {
    await client.query('begin')
    await skipForeignKeyChecks(client)
    await work(client)
    await client.query('commit')
  } catch (error) {
    await client.query('rollback').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/**
 * What a payout run pays: `creators` creators (seedCreators), one recording, and `revenues`
 * revenue lines of 10 EUR each allocated to `perEntry` creators round-robin (2.5 EUR each at
 * four), all in set-based SQL. Returns the number of allocations.
 */
export async function seedAllocations(
  owner: pg.Pool,
  orgId: string,
  userId: string,
  creators: number,
  revenues: number,
  perEntry: number,
): Promise<number> {
  await seedCreators(owner, orgId, userId, creators)
  await seedRecordings(owner, orgId, userId, 1, creators)
  await withoutForeignKeyChecks(owner, async (client) => {
    await client.query(
      `insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, created_at, created_by)
       select $1, 'rev_bench' || lpad(r::text, 10, '0'), 'cat_bench0000000000', 'Bench', 'stream', '2026-09-01', '2026-09-30', 'DE', 100, $4::bigint * 2500000, 'EUR', 'BENCH', r::text, now(), $2
       from generate_series(0, $3::int - 1) as r`,
      [orgId, userId, revenues, perEntry],
    )
    await client.query(
      `insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros)
       select $1, 'rev_bench' || lpad(r::text, 10, '0'), 'crt_bench' || lpad(((r * $3::int + k) % $4::int)::text, 10, '0'), 'EUR', 2500000
       from generate_series(0, $2::int - 1) as r, generate_series(0, $3::int - 1) as k`,
      [orgId, revenues, perEntry, creators],
    )
  })
  // Statistics as autovacuum would leave them on tables this size.
  await owner.query('analyze creators, revenue_entries, revenue_allocations, payouts, payout_items')
  return revenues * perEntry
}
