import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { Database } from '../src/database.js'
import { openTestDatabase } from './helpers.js'
import { asOwner } from '../src/db/sql-backend.js'

let db: Database

beforeAll(async () => {
  db = await openTestDatabase()
})
afterAll(() => db.close())

async function ownerQuery<T>(statement: string): Promise<T[]> {
  return (await asOwner(db.backend, statement, [])).rows as T[]
}

describe('tenancy is enforced by the database', () => {
  it('has forced RLS and a USING + WITH CHECK policy on every table with an org_id column', async () => {
    const tables = await ownerQuery<{ table: string; enabled: boolean; forced: boolean }>(`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped)`)
    expect(tables.length).toBeGreaterThan(4)
    for (const table of tables) {
      expect(table, `${table.table} must enable and force RLS`).toMatchObject({ enabled: true, forced: true })
      const policies = await ownerQuery<{ qual: string | null; with_check: string | null; cmd: string; roles: string }>(
        `select qual, with_check, cmd, roles::text as roles from pg_policies where schemaname = 'public' and tablename = '${table.table}'`,
      )
      const tenant = policies.filter((policy) => policy.roles !== '{oeuvre_definer}')
      expect(tenant.length, `${table.table} needs a tenant policy`).toBeGreaterThan(0)
      // The only other policies: read (or prune) access for the definer role, which no session can assume.
      for (const policy of policies.filter((p) => p.roles === '{oeuvre_definer}')) {
        expect(['SELECT', 'DELETE'], `${table.table} definer policy`).toContain(policy.cmd)
      }
      for (const policy of tenant) {
        expect(policy.roles, `${table.table} tenant policy applies to everyone`).toBe('{public}')
        expect(policy.qual, `${table.table} policy needs USING`).toContain('app_org_id()')
        if (policy.cmd === 'ALL' || policy.cmd === 'INSERT' || policy.cmd === 'UPDATE') {
          expect(policy.with_check, `${table.table} policy needs WITH CHECK`).toContain('app_org_id()')
        }
      }
    }
  })

  it('leads every unique key of a tenant table with org_id', async () => {
    const keys = await ownerQuery<{ table: string; index: string; first: string }>(`
      select t.relname as table, i.relname as index, a.attname as first
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_class i on i.oid = x.indexrelid
      join pg_namespace n on n.oid = t.relnamespace
      join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
      where n.nspname = 'public' and x.indisunique
        and exists (select 1 from pg_attribute o where o.attrelid = t.oid and o.attname = 'org_id' and not o.attisdropped)`)
    for (const key of keys) expect(key.first, `${key.table}.${key.index}`).toBe('org_id')
  })

  it('owns every SECURITY DEFINER function by a role that cannot bypass RLS and that the app cannot become', async () => {
    const functions = await ownerQuery<{ name: string; owner: string }>(`
      select p.proname as name, r.rolname as owner from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace join pg_roles r on r.oid = p.proowner
      where n.nspname = 'public' and p.prosecdef`)
    expect(functions.length).toBeGreaterThan(3)
    for (const fn of functions) expect(fn.owner, fn.name).toBe('oeuvre_definer')
    const [definer] = await ownerQuery<{ rolsuper: boolean; rolbypassrls: boolean; rolcanlogin: boolean }>(
      `select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = 'oeuvre_definer'`,
    )
    expect(definer).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false })
    const [member] = await ownerQuery<{ member: boolean }>(
      `select pg_has_role('oeuvre_app', 'oeuvre_definer', 'MEMBER') as member`,
    )
    expect(member?.member).toBe(false)
  })

  it('runs the application as a role that owns nothing and cannot bypass RLS', async () => {
    const who = await sql<{ role: string }>`select current_user as role`.execute(db.global)
    expect(who.rows[0]?.role).toBe('oeuvre_app')
    const [role] = await ownerQuery<{ rolsuper: boolean; rolbypassrls: boolean }>(
      `select rolsuper, rolbypassrls from pg_roles where rolname = 'oeuvre_app'`,
    )
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false })
    const owned = await ownerQuery<{ n: bigint }>(
      `select count(*) as n from pg_class c join pg_roles r on r.oid = c.relowner where r.rolname = 'oeuvre_app'`,
    )
    expect(Number(owned[0]?.n)).toBe(0)
  })

  it('shows the application no tenant rows without an org, and only its own org’s with one', async () => {
    const anyOrgs = await db.global.selectFrom('orgs').select('org_id').execute()
    expect(anyOrgs).toEqual([])
    await expect(
      db.tx({ orgId: 'org_01JZ0000000000000000000000' }, (tx) =>
        tx
          .insertInto('org_event_heads')
          .values({ org_id: 'org_01JZ0000000000000000000001', sequence: 0n, hash: 'x' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/)
  })
})
