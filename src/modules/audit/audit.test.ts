import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../database.js'
import { asOwner } from '../../db/sql-backend.js'
import {
  buildTestApp,
  call,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  uniqueEmail,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { mergeAppendRuns } from './audit.service.js'
import { verifyChain } from '../verification/index.js'
import { startRangeWalkers } from '../verification/index.js'

const run = promisify(execFile)
let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

interface EventRecord {
  id: string
  orgId: string
  action: string
  userId: string
  createdAt: string
  hash: string
  sequence: number
  resource: { type: string; id: string } | null
  data: unknown
}

const invite = (owner: OrgAccount) =>
  call(t.app, {
    method: 'POST',
    url: '/api/members/invitations',
    token: owner.token,
    body: { email: uniqueEmail('guest'), role: 'viewer' },
  })

async function allEvents(owner: OrgAccount): Promise<EventRecord[]> {
  const events: EventRecord[] = []
  let cursor = ''
  for (;;) {
    const page = (
      await call(t.app, { url: `/api/org-events?limit=100${cursor ? `&cursor=${cursor}` : ''}`, token: owner.token })
    ).json()
    events.push(...page.data)
    cursor = page.pagination.cursor
    if (!page.pagination.hasMore) return events
  }
}

/** The recipe of docs/audit.md, written again from the document, not imported. */
/** Runs `statement` with `$1` = orgId as the table owner (the application role cannot tamper). PGlite has one connection: released before reading. */
async function asTableOwner(statement: string, orgId: string): Promise<void> {
  await asOwner(t.db.backend, statement, [orgId])
}

function recomputeHash(event: EventRecord, previousHash: string): string {
  const { hash: _hash, ...content } = event
  const text = (canonicalize as unknown as (value: unknown) => string)({ ...content, previousHash })
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`
}

describe('the org event log', () => {
  it('records member.invited with a sha256 hash and consecutive sequences', async () => {
    const owner = await ownerWithOrg(t.app)
    expect((await invite(owner)).statusCode).toBe(201)
    const events = await allEvents(owner)
    expect(events.map((e) => e.action)).toEqual(['org.created', 'member.invited'])
    expect(events.map((e) => e.sequence)).toEqual([1, 2])
    for (const event of events) {
      expect(event.hash).toMatch(/^sha256:[0-9a-f]{64}$/)
      expect(event.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/)
      expect(event.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    }
  })

  it('chains each hash to the previous one by the published recipe', async () => {
    const owner = await ownerWithOrg(t.app)
    for (let i = 0; i < 3; i += 1) await invite(owner)
    const events = await allEvents(owner)
    let previous = `sha256:${'0'.repeat(64)}`
    for (const event of events) {
      expect(recomputeHash(event, previous)).toBe(event.hash)
      previous = event.hash
    }
  })

  it('keeps the sequence gapless and the chain valid under 50 concurrent writes', async () => {
    const owner = await ownerWithOrg(t.app)
    const responses = await Promise.all(Array.from({ length: 50 }, () => invite(owner)))
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(201))
    const events = await allEvents(owner)
    expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1))
    expect(await verifyChain(t.db, owner.orgId)).toEqual({ orgId: owner.orgId, ok: true, events: 51 })
  })

  it('appends a run of events in one step (bulk imports) on the same gapless, verifiable chain', async () => {
    const owner = await ownerWithOrg(t.app)
    await invite(owner)
    const ctx = { orgId: owner.orgId, actor: { userId: owner.userId } }
    const items = Array.from({ length: 5 }, (_, i) => ({
      action: 'test.bulk',
      resource: { type: 'test', id: `t${i}` },
      data: { i },
    }))
    const appended = await t.db.tx(ctx, (tx) => t.services.audit.appendNow(tx, ctx, items))
    expect(appended.map((e) => e.sequence)).toEqual([3, 4, 5, 6, 7])
    await invite(owner)
    const events = await allEvents(owner)
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    let previous = `sha256:${'0'.repeat(64)}`
    for (const event of events) {
      expect(recomputeHash(event, previous)).toBe(event.hash)
      previous = event.hash
    }
    expect(await verifyChain(t.db, owner.orgId)).toEqual({ orgId: owner.orgId, ok: true, events: 8 })
  })

  it('does not let the application role change or delete events', async () => {
    const owner = await ownerWithOrg(t.app)
    await expect(
      t.db.tx({ orgId: owner.orgId }, (tx) =>
        sql`update org_events set action = 'x.y' where org_id = ${owner.orgId}`.execute(tx),
      ),
    ).rejects.toThrow(/permission denied/)
    await expect(
      t.db.tx({ orgId: owner.orgId }, (tx) => sql`delete from org_events where org_id = ${owner.orgId}`.execute(tx)),
    ).rejects.toThrow(/permission denied/)
  })

  it('names the first broken link when a row is altered or deleted', async () => {
    const owner = await ownerWithOrg(t.app)
    for (let i = 0; i < 4; i += 1) await invite(owner)
    const events = await allEvents(owner)
    const tamper = (statement: string) => asTableOwner(statement, owner.orgId)
    await tamper(
      `update org_events set data = jsonb_set(data::jsonb, '{role}', '"owner"')::text where org_id = $1 and sequence = 3`,
    )
    const altered = await verifyChain(t.db, owner.orgId)
    expect(altered.ok).toBe(false)
    expect(altered.broken).toMatchObject({ sequence: 3, eventId: events[2]!.id })

    await tamper('delete from org_events where org_id = $1 and sequence = 3')
    const deleted = await verifyChain(t.db, owner.orgId)
    expect(deleted.broken?.sequence).toBe(3)
    expect(deleted.broken?.reason).toContain('missing')
  })

  it('names the first broken link across read batches: a gap at a batch boundary, a row stored past the head', async () => {
    const owner = await ownerWithOrg(t.app)
    for (let i = 0; i < 6; i += 1) await invite(owner)
    const tamper = (statement: string) => asTableOwner(statement, owner.orgId)
    expect(await verifyChain(t.db, owner.orgId, { batchSize: 3 })).toEqual({ orgId: owner.orgId, ok: true, events: 7 })
    expect(await verifyChain(t.db, owner.orgId, { batchSize: 1 })).toEqual({ orgId: owner.orgId, ok: true, events: 7 })

    // A row past the head (as if inserted around the service): the head disagrees with what is stored.
    await tamper(
      `insert into org_events select org_id, 8, 'evt_00000000000000000000000008', action, user_id, resource_type, resource_id, data, created_at, hash from org_events where org_id = $1 and sequence = 7`,
    )
    const beyond = await verifyChain(t.db, owner.orgId, { batchSize: 3 })
    expect(beyond).toMatchObject({ ok: false, events: 7, broken: { sequence: 8, eventId: null } })
    expect(beyond.broken?.reason).toContain('head records 7')

    await tamper('delete from org_events where org_id = $1 and sequence = 4')
    const gap = await verifyChain(t.db, owner.orgId, { batchSize: 3 })
    expect(gap).toMatchObject({
      ok: false,
      events: 3,
      broken: { sequence: 4, eventId: null, reason: 'event 4 is missing (next present is 5)' },
    })
    const gapInBatch = await verifyChain(t.db, owner.orgId, { batchSize: 5 })
    expect(gapInBatch).toMatchObject({
      ok: false,
      events: 3,
      broken: { sequence: 4, reason: 'event 4 is missing (next present is 5)' },
    })
    const gapEndingBatch = await verifyChain(t.db, owner.orgId, { batchSize: 4 })
    expect(gapEndingBatch).toMatchObject({
      ok: false,
      events: 3,
      broken: { sequence: 4, reason: 'event 4 is missing (next present is 5)' },
    })
  })

  it('walks a chain in ranges on several threads and names exactly the link one thread names', async () => {
    // Other threads reach the run's PostgreSQL database; PGlite has no server to share, so there
    // the option is ignored and its address never dialled.
    const databaseUrl =
      t.db.kind === 'pg' ? (process.env.OEUVRE_TEST_DATABASE_URL ?? '') : 'postgres://never-dialled.invalid/none'
    const tampering = fc.constantFrom('none', 'data', 'hash', 'delete', 'delete-last', 'insert-past-head')
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          events: fc.integer({ min: 2, max: 9 }),
          at: fc.nat(),
          tamper: tampering,
          threads: fc.integer({ min: 2, max: 3 }),
          minRange: fc.integer({ min: 1, max: 3 }),
          batchSize: fc.integer({ min: 1, max: 4 }),
        }),
        async ({ events, at, tamper, threads, minRange, batchSize }) => {
          const owner = await ownerWithOrg(t.app)
          for (let i = 1; i < events; i += 1) await invite(owner)
          const sequence = (at % events) + 1
          const change = (statement: string) => asTableOwner(statement, owner.orgId)
          if (tamper === 'data')
            await change(
              `update org_events set data = jsonb_set(data::jsonb, '{tampered}', 'true')::text where org_id = $1 and sequence = ${sequence}`,
            )
          if (tamper === 'hash')
            await change(
              `update org_events set hash = 'sha256:' || repeat('0', 64) where org_id = $1 and sequence = ${sequence}`,
            )
          if (tamper === 'delete') await change(`delete from org_events where org_id = $1 and sequence = ${sequence}`)
          if (tamper === 'delete-last')
            await change(`delete from org_events where org_id = $1 and sequence >= ${sequence}`)
          if (tamper === 'insert-past-head') {
            await change(
              `insert into org_events select org_id, ${events + 1}, 'evt_0000000000000000000000000x', action, user_id, resource_type, resource_id, data, created_at, hash from org_events where org_id = $1 and sequence = ${events}`,
            )
          }
          const alone = await verifyChain(t.db, owner.orgId, { batchSize })
          const together = await verifyChain(t.db, owner.orgId, {
            batchSize,
            parallel: { databaseUrl, threads, minRange },
          })
          expect(together).toEqual(alone)
          expect(alone.ok).toBe(tamper === 'none')
        },
      ),
      { numRuns: 12 },
    )
  }, 120_000)

  it('walks with worker threads started ahead of it, reuses them from walk to walk, and closes them', async () => {
    // `oeuvre audit verify` starts its threads first (audit.verify.threads.ts). On PGlite the walk
    // stays in this thread and the started ones, which cannot reach a server, still close by themselves.
    const databaseUrl =
      t.db.kind === 'pg' ? (process.env.OEUVRE_TEST_DATABASE_URL ?? '') : 'postgres://127.0.0.1:1/none'
    const intact = await ownerWithOrg(t.app)
    for (let i = 0; i < 8; i += 1) await invite(intact)
    const tampered = await ownerWithOrg(t.app)
    for (let i = 0; i < 8; i += 1) await invite(tampered)
    await asTableOwner(
      `update org_events set data = jsonb_set(data::jsonb, '{tampered}', 'true')::text where org_id = $1 and sequence = 2`,
      tampered.orgId,
    )
    // No grace period: each thread is waited for until it exits by itself (a thread that never did would time the test out),
    // so how fast the machine is does not decide whether one counts as stopped.
    const walkers = startRangeWalkers(databaseUrl, 2, { closeGraceMs: Infinity })
    const options = { batchSize: 2, parallel: { databaseUrl, threads: 3, minRange: 1, walkers } }
    try {
      for (const owner of [intact, tampered, intact]) {
        expect(await verifyChain(t.db, owner.orgId, options)).toEqual(
          await verifyChain(t.db, owner.orgId, { batchSize: 2 }),
        )
      }
    } finally {
      const ended = await walkers.close()
      // Threads abandoned mid-range (the tampered chain breaks in the first range) were stopped then, and replaced.
      expect(ended.stopped).toBe(0)
      expect(ended.closed).toBeGreaterThanOrEqual(2)
    }
    expect((await verifyChain(t.db, tampered.orgId)).broken?.sequence).toBe(2)
  }, 60_000)

  it('fails the parallel walk when a worker thread cannot read its range, rather than passing it', async () => {
    const owner = await ownerWithOrg(t.app)
    for (let i = 0; i < 5; i += 1) await invite(owner)
    const url = new URL(process.env.OEUVRE_TEST_DATABASE_URL ?? 'postgres://127.0.0.1/none')
    url.pathname = '/oeuvre_no_such_database'
    const verifying = verifyChain(t.db, owner.orgId, {
      parallel: { databaseUrl: url.toString(), threads: 2, minRange: 1 },
    })
    if (t.db.kind === 'pg')
      await expect(verifying).rejects.toThrow(/verifying a range of the chain failed: .*oeuvre_no_such_database/)
    else expect(await verifying).toEqual({ orgId: owner.orgId, ok: true, events: 6 })
  })

  it('detects events removed from the end through the chain head', async () => {
    const owner = await ownerWithOrg(t.app)
    await invite(owner)
    await asTableOwner('delete from org_events where org_id = $1 and sequence = 2', owner.orgId)
    const report = await verifyChain(t.db, owner.orgId)
    expect(report.ok).toBe(false)
    expect(report.broken?.sequence).toBe(2)
  })
})

describe('GET /api/org-events', () => {
  it('pages oldest first, always returns a cursor, and polling it yields only new events', async () => {
    const owner = await ownerWithOrg(t.app)
    for (let i = 0; i < 4; i += 1) await invite(owner)
    const first = (await call(t.app, { url: '/api/org-events?limit=3', token: owner.token })).json()
    expect(first.data.map((e: EventRecord) => e.sequence)).toEqual([1, 2, 3])
    expect(first.pagination.hasMore).toBe(true)
    const second = (
      await call(t.app, { url: `/api/org-events?limit=3&cursor=${first.pagination.cursor}`, token: owner.token })
    ).json()
    expect(second.data.map((e: EventRecord) => e.sequence)).toEqual([4, 5])
    expect(second.pagination).toMatchObject({ hasMore: false })
    expect(second.pagination.cursor).toEqual(expect.any(String))

    const empty = (
      await call(t.app, { url: `/api/org-events?limit=3&cursor=${second.pagination.cursor}`, token: owner.token })
    ).json()
    expect(empty.data).toEqual([])
    expect(empty.pagination.cursor).toBe(second.pagination.cursor)

    await invite(owner)
    const polled = (
      await call(t.app, { url: `/api/org-events?limit=3&cursor=${empty.pagination.cursor}`, token: owner.token })
    ).json()
    expect(polled.data.map((e: EventRecord) => e.sequence)).toEqual([6])
  })

  it('filters by action and time, and binds the cursor to its filters', async () => {
    const owner = await ownerWithOrg(t.app)
    await invite(owner)
    t.clock.advance(1000)
    const start = t.clock.now().toISOString()
    await invite(owner)
    const invited = (
      await call(t.app, { url: '/api/org-events?action=member.invited&limit=1', token: owner.token })
    ).json()
    expect(invited.data).toHaveLength(1)
    expect(invited.data[0].action).toBe('member.invited')
    const since = (
      await call(t.app, { url: `/api/org-events?since=${encodeURIComponent(start)}`, token: owner.token })
    ).json()
    expect(since.data.map((e: EventRecord) => e.sequence)).toEqual([3])
    const until = (
      await call(t.app, { url: `/api/org-events?until=${encodeURIComponent(start)}`, token: owner.token })
    ).json()
    expect(until.data.map((e: EventRecord) => e.sequence)).toEqual([1, 2])
    expectProblem(
      await call(t.app, {
        url: `/api/org-events?action=org.created&cursor=${invited.pagination.cursor}`,
        token: owner.token,
      }),
      400,
      'invalid_cursor',
    )
  })

  it('finds every action of an object (payout: payout.*), newest first on request, with who did each', async () => {
    const owner = await ownerWithOrg(t.app)
    const admin = await memberWithRole(t.app, owner, 'admin')
    await invite(owner)
    expect((await invite(admin)).statusCode).toBe(201)
    // The admin leaves the org; the log still names them.
    const removed = await call(t.app, { method: 'DELETE', url: `/api/members/${admin.userId}`, token: owner.token })
    expect(removed.statusCode, removed.body).toBeLessThan(300)

    const members = (await call(t.app, { url: '/api/org-events?action=member', token: owner.token })).json()
    expect(members.data.map((e: EventRecord) => e.action)).toEqual([
      'member.invited',
      'member.joined',
      'member.invited',
      'member.invited',
      'member.removed',
    ])
    expect((await call(t.app, { url: '/api/org-events?action=mem', token: owner.token })).json().data).toEqual([])

    const newest = (await call(t.app, { url: '/api/org-events?order=desc&limit=2', token: owner.token })).json()
    const all = await allEvents(owner)
    expect(newest.data.map((e: EventRecord) => e.sequence)).toEqual([all.length, all.length - 1])
    expect(newest.pagination.hasMore).toBe(true)
    const next = (
      await call(t.app, {
        url: `/api/org-events?order=desc&limit=100&cursor=${newest.pagination.cursor}`,
        token: owner.token,
      })
    ).json()
    expect(next.data.map((e: EventRecord) => e.sequence)).toEqual(
      Array.from({ length: all.length - 2 }, (_, i) => all.length - 2 - i),
    )
    expect(next.pagination).toEqual({ cursor: null, hasMore: false })
    // A cursor belongs to its order.
    expectProblem(
      await call(t.app, { url: `/api/org-events?cursor=${newest.pagination.cursor}`, token: owner.token }),
      400,
      'invalid_cursor',
    )

    const page = (await call(t.app, { url: '/api/org-events?limit=100', token: owner.token })).json()
    const actors = new Map(page.actors.map((actor: { id: string }) => [actor.id, actor]))
    expect(new Set(page.data.map((e: EventRecord) => e.userId))).toEqual(new Set(actors.keys()))
    expect(actors.get(owner.userId)).toEqual({ id: owner.userId, kind: 'person', name: 'owner', email: owner.email })
    expect(actors.get(admin.userId)).toEqual({ id: admin.userId, kind: 'person', name: 'admin', email: admin.email })
  })

  it('fetches one event, and another org’s event is 404', async () => {
    const owner = await ownerWithOrg(t.app)
    const stranger = await ownerWithOrg(t.app)
    expect((await invite(owner)).statusCode).toBe(201)
    const [event, second] = await allEvents(owner)
    expect((await call(t.app, { url: `/api/org-events/${event!.id}`, token: owner.token })).json()).toEqual({
      ...event,
      previousHash: `sha256:${'0'.repeat(64)}`,
    })
    // With the hash it is chained to, the event's own hash recomputes by the recipe.
    const detail = (await call(t.app, { url: `/api/org-events/${second!.id}`, token: owner.token })).json()
    expect(detail).toEqual({ ...second, previousHash: event!.hash })
    const { previousHash, ...presented } = detail as EventRecord & { previousHash: string }
    expect(recomputeHash(presented, previousHash)).toBe(second!.hash)
    expectProblem(
      await call(t.app, { url: `/api/org-events/${event!.id}`, token: stranger.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { url: '/api/org-events/evt_00000000000000000000000000', token: owner.token }),
      404,
      'resource_missing',
    )
  })
})

describe('oeuvre audit verify (the CLI)', () => {
  it('passes on an intact chain and fails at exactly the altered event', async () => {
    const serverUrl = process.env.OEUVRE_TEST_DATABASE_URL
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-verify-'))
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: serverUrl ?? '', LOG_LEVEL: 'silent' }
    try {
      // The CLI is a separate process, so the data must live where it can open it.
      const db = await openDatabase({ databaseUrl: serverUrl ?? null, dataDir })
      const app = await buildTestApp({ db })
      const owner = await ownerWithOrg(app.app)
      for (let i = 0; i < 3; i += 1) {
        await call(app.app, {
          method: 'POST',
          url: '/api/members/invitations',
          token: owner.token,
          body: { email: uniqueEmail(), role: 'viewer' },
        })
      }
      const events = (await call(app.app, { url: '/api/org-events', token: owner.token })).json().data as EventRecord[]
      await app.close()
      await db.close()

      const cli = (args: string[]) =>
        run('npx', ['tsx', 'src/main.ts', 'audit', 'verify', '--org', owner.orgId, ...args], { env }).catch(
          (error: { stdout: string; stderr: string; code: number }) => error,
        )
      const intact = await cli(['--json'])
      expect(JSON.parse(intact.stdout)).toMatchObject({ ok: true, events: 4 })
      const badThreads = (await cli(['--threads', '0'])) as { stderr: string; code: number }
      expect(badThreads.code).not.toBe(0)
      expect(badThreads.stderr).toContain('a whole number from 1 to 64')

      const again = await openDatabase({ databaseUrl: serverUrl ?? null, dataDir })
      await asOwner(
        again.backend,
        `update org_events set created_at = created_at + interval '1 second' where org_id = $1 and sequence = 2`,
        [owner.orgId],
      )
      await again.close()

      const broken = (await cli([])) as { stdout: string; code: number }
      expect(broken.code).toBe(1)
      expect(broken.stdout).toContain(`BROKEN at sequence 2 (${events[1]!.id})`)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('runs merged for a group commit', () => {
  const event = (orgId: string, id: string) => ({
    id,
    orgId,
    action: 'test.merge',
    userId: 'usr_test',
    resource: null,
    dataText: '{}',
  })
  const at = (iso: string) => new Date(iso)

  it('keeps the group’s order of events, and writes them at the latest of the runs’ times, due when the latest is due', () => {
    const merged = mergeAppendRuns([
      {
        orgId: 'org_a',
        events: [event('org_a', 'evt_1'), event('org_a', 'evt_2')],
        createdAt: at('2026-11-25T10:00:00.005Z'),
        deliveriesDue: at('2026-11-25T10:00:01.005Z'),
      },
      {
        orgId: 'org_a',
        events: [event('org_a', 'evt_3')],
        createdAt: at('2026-11-25T10:00:00.009Z'),
        deliveriesDue: at('2026-11-25T10:00:01.009Z'),
      },
      {
        orgId: 'org_a',
        events: [event('org_a', 'evt_4')],
        createdAt: at('2026-11-25T10:00:00.001Z'),
        deliveriesDue: at('2026-11-25T10:00:01.001Z'),
      },
    ])
    expect(merged.events.map((e) => e.id)).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4'])
    expect(merged.createdAt.toISOString()).toBe('2026-11-25T10:00:00.009Z')
    expect(merged.deliveriesDue?.toISOString()).toBe('2026-11-25T10:00:01.009Z')
    const withoutOutbox = mergeAppendRuns([
      { orgId: 'org_a', events: [event('org_a', 'evt_5')], createdAt: at('2026-11-25T10:00:00Z'), deliveriesDue: null },
    ])
    expect(withoutOutbox.deliveriesDue).toBeNull()
  })

  it('refuses runs of two orgs: each org has its own chain', () => {
    const run = (orgId: string) => ({
      orgId,
      events: [event(orgId, `evt_${orgId}`)],
      createdAt: at('2026-11-25T10:00:00Z'),
      deliveriesDue: null,
    })
    expect(() => mergeAppendRuns([run('org_a'), run('org_b')])).toThrow(/different orgs/)
  })
})
