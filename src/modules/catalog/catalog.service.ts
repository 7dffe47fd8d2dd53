import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import type { RequestContext } from '../../platform/context.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { AppError, notFound } from '../../platform/errors.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { existingCreatorIds } from '../creators/index.js'
import { normaliseIsrc, requireIdentifier } from '../../shared/records/records.identifiers.js'
import { iso, conflictsAsAppErrors } from '../../shared/records/records.mount.js'
import {
  activeEntryWithIsrc,
  findEntry,
  insertEntry,
  listEntries,
  splitsOf,
  supersedeEntry,
  type CatalogRow,
  type SplitRow,
} from './catalog.repo.js'
import { checkSplitCreators, checkSplitShape, normaliseIdentifiers, requireTerritories } from './catalog.rules.js'
import type { CatalogEntry, CatalogQuery, CreateCatalogBody, Split } from './catalog.schemas.js'

export interface CatalogService {
  /** `answer`: the request's Idempotency-Key answer, committed with the entry. */
  create(ctx: RequestContext, body: CreateCatalogBody, answer?: StoredAnswer): Promise<CatalogEntry>
  get(ctx: RequestContext, id: string): Promise<CatalogEntry>
  list(ctx: RequestContext, query: CatalogQuery): Promise<Page<CatalogEntry>>
}

export function presentEntry(row: CatalogRow, splits: readonly SplitRow[]): CatalogEntry {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    versionTitle: row.version_title,
    displayArtist: row.display_artist,
    identifiers: { isrc: row.isrc, iswc: row.iswc, upc: row.upc },
    releaseDate: row.release_date,
    territories: row.territories,
    workId: row.work_id,
    splits: splits.map((split) => ({
      creatorId: split.creator_id,
      role: split.role as Split['role'],
      shareBps: split.share_bps,
    })),
    supersedes: row.supersedes,
    supersededBy: row.superseded_by,
    status: row.superseded_by === null ? 'active' : 'superseded',
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  }
}

const CONSTRAINT_CONFLICTS: Record<string, string> = {
  catalog_entries_active_isrc: 'An active entry of this org already has this ISRC; supersede it instead',
  catalog_entries_supersedes: 'That entry has already been superseded',
}

/** What the service is built from: the database, time, ids, and the audit log's append. */
export interface CatalogDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

export function createCatalogService(deps: CatalogDeps): CatalogService {
  return {
    // A concurrent writer won the race the checks in createEntry could not see.
    create: (ctx, body, answer) =>
      conflictsAsAppErrors(() => createEntry(deps, ctx, body, answer), CONSTRAINT_CONFLICTS),
    get: (ctx, id) => getEntry(deps.db, ctx, id),
    list: (ctx, query) => listCatalog(deps.db, ctx, query),
  }
}

async function createEntry(
  deps: CatalogDeps,
  ctx: RequestContext,
  body: CreateCatalogBody,
  answer?: StoredAnswer,
): Promise<CatalogEntry> {
  const { row, splits } = entryRows(deps, ctx, body)
  return deps.db.tx(
    ctx,
    async (tx) => {
      checkSplitCreators(
        body.splits,
        await existingCreatorIds(
          tx,
          ctx.orgId,
          body.splits.map((split) => split.creatorId),
        ),
      )
      if (row.work_id !== null) await requireWork(tx, ctx.orgId, row.work_id)
      const superseded = row.supersedes !== null ? await supersede(tx, ctx.orgId, row, row.supersedes) : undefined
      if (row.isrc !== null) await refuseActiveIsrc(tx, ctx.orgId, row.isrc)
      await insertEntry(tx, row, splits)
      const entry = presentEntry(row, splits)
      await deps.audit.append(tx, ctx, 'catalog.created', { type: 'catalog', id: row.id }, entry)
      if (superseded) {
        const oldSplits = (await splitsOf(tx, ctx.orgId, [superseded.id])).get(superseded.id) ?? []
        await deps.audit.append(
          tx,
          ctx,
          'catalog.superseded',
          { type: 'catalog', id: superseded.id },
          presentEntry(superseded, oldSplits),
        )
      }
      return entry
    },
    { commitWith: answer },
  )
}

/** The entry's row and its splits' rows, from a body checked for what needs no database. */
function entryRows(
  { ids, clock }: CatalogDeps,
  ctx: RequestContext,
  body: CreateCatalogBody,
): { row: CatalogRow; splits: SplitRow[] } {
  const identifiers = normaliseIdentifiers(body.kind, body.identifiers)
  const territories = requireTerritories(body.territories ?? ['WORLD'])
  if (body.workId !== undefined && body.kind !== 'recording') {
    throw new AppError('parameter_invalid', 'workId links a recording to its work; only recordings have one', {
      param: 'workId',
    })
  }
  checkSplitShape(body.splits)
  const row: CatalogRow = {
    org_id: ctx.orgId,
    id: ids.next('catalog'),
    kind: body.kind,
    title: body.title.trim(),
    version_title: body.versionTitle?.trim() ?? null,
    display_artist: body.displayArtist?.trim() ?? null,
    ...identifiers,
    release_date: body.releaseDate ?? null,
    territories,
    work_id: body.workId ?? null,
    supersedes: body.supersedes ?? null,
    superseded_by: null,
    created_at: clock.now(),
    created_by: ctx.actor.userId,
  }
  const splits: SplitRow[] = body.splits.map((split, position) => ({
    org_id: ctx.orgId,
    catalog_id: row.id,
    position,
    creator_id: split.creatorId,
    role: split.role,
    share_bps: split.shareBps,
  }))
  return { row, splits }
}

async function requireWork(tx: Tx, orgId: string, workId: string): Promise<void> {
  const work = await findEntry(tx, orgId, workId)
  if (!work || work.kind !== 'work') {
    throw new AppError('unprocessable', `workId ${workId} is not a work entry of this org`, {
      param: 'workId',
    })
  }
}

/** Marks the corrected entry superseded by `row`: it must exist, be active and be of the same kind. */
async function supersede(tx: Tx, orgId: string, row: CatalogRow, supersedes: string): Promise<CatalogRow> {
  const superseded = await supersedeEntry(tx, orgId, supersedes, row.id)
  if (!superseded) {
    const existing = await findEntry(tx, orgId, supersedes)
    if (!existing)
      throw new AppError('unprocessable', `supersedes ${supersedes} is not a catalog entry of this org`, {
        param: 'supersedes',
      })
    throw new AppError('conflict', `${supersedes} has already been superseded by ${existing.superseded_by}`, {
      param: 'supersedes',
    })
  }
  if (superseded.kind !== row.kind) {
    throw new AppError('unprocessable', `A correction keeps the kind: ${supersedes} is a ${superseded.kind}`, {
      param: 'supersedes',
    })
  }
  return superseded
}

async function refuseActiveIsrc(tx: Tx, orgId: string, isrc: string): Promise<void> {
  const holder = await activeEntryWithIsrc(tx, orgId, isrc)
  if (holder)
    throw new AppError('conflict', `Active entry ${holder.id} already has ISRC ${isrc}; supersede it instead`, {
      param: 'identifiers.isrc',
    })
}

async function getEntry(db: Database, ctx: RequestContext, id: string): Promise<CatalogEntry> {
  const found = await db.read(ctx.orgId, async (reader) => {
    const row = await findEntry(reader, ctx.orgId, id)
    return row ? { row, splits: (await splitsOf(reader, ctx.orgId, [row.id])).get(row.id) ?? [] } : undefined
  })
  if (!found) throw notFound('catalog entry')
  return presentEntry(found.row, found.splits)
}

async function listCatalog(db: Database, ctx: RequestContext, query: CatalogQuery): Promise<Page<CatalogEntry>> {
  const filters = {
    kind: query.kind,
    isrc: query.isrc === undefined ? undefined : requireIdentifier(query.isrc, normaliseIsrc, 'isrc', 'ISRC'),
    creatorId: query.creatorId,
    q: query.q,
  }
  const after = decodeCursor(query.cursor, filters, 2)
  const { rows, splits } = await db.read(ctx.orgId, async (reader) => {
    const rows = await listEntries(reader, ctx.orgId, filters, after, query.limit)
    return {
      rows,
      splits: await splitsOf(
        reader,
        ctx.orgId,
        rows.map((row) => row.id),
      ),
    }
  })
  return toPage(
    rows,
    query.limit,
    (row) => [iso(row.created_at), row.id],
    (row) => presentEntry(row, splits.get(row.id) ?? []),
    filters,
  )
}
