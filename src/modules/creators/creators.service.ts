import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import type { RequestContext } from '../../platform/context.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { notFound } from '../../platform/errors.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { minorUnit } from '../../shared/money/money.currencies.js'
import { formatAmount, MICRO_PLACES, parseAmount } from '../../shared/money/money.decimal.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import {
  normaliseIpi,
  normaliseIsni,
  requireCountry,
  requireIdentifier,
} from '../../shared/records/records.identifiers.js'
import { iso } from '../../shared/records/records.mount.js'
import { findCreator, insertCreator, listCreators, type CreatorRow } from './creators.repo.js'
import type { CreateCreatorBody, Creator, CreatorQuery } from './creators.schemas.js'

export interface CreatorsService {
  /** `answer`: the request's Idempotency-Key answer, committed with the creator. */
  create(ctx: RequestContext, body: CreateCreatorBody, answer?: StoredAnswer): Promise<Creator>
  get(ctx: RequestContext, id: string): Promise<Creator>
  list(ctx: RequestContext, query: CreatorQuery): Promise<Page<Creator>>
}

export function presentCreator(row: CreatorRow): Creator {
  return {
    id: row.id,
    name: row.name,
    legalName: row.legal_name,
    kind: row.kind,
    roles: row.roles as Creator['roles'],
    email: row.email,
    country: row.country,
    ipi: row.ipi,
    isni: row.isni,
    payoutCurrency: row.payout_currency,
    minimumPayout: formatAmount(row.minimum_payout_micros, row.payout_currency),
    openingBalance: formatAmount(row.opening_balance_micros, row.payout_currency),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  }
}

/** What the service is built from: the database, time, ids, and the audit log's append. */
export interface CreatorsDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

export function createCreatorsService(deps: CreatorsDeps): CreatorsService {
  const { db, clock, ids, audit } = deps

  return {
    async create(ctx, body, answer) {
      const currency = requireCurrency(body.payoutCurrency, 'payoutCurrency')
      const row: CreatorRow = {
        org_id: ctx.orgId,
        id: ids.next('creator'),
        name: body.name.trim(),
        legal_name: body.legalName?.trim() ?? null,
        kind: body.kind,
        roles: body.roles,
        email: body.email ?? null,
        country: body.country === undefined ? null : requireCountry(body.country, 'country'),
        ipi:
          body.ipi === undefined
            ? null
            : requireIdentifier(body.ipi, normaliseIpi, 'ipi', 'IPI name number (9 or 11 digits)'),
        isni:
          body.isni === undefined
            ? null
            : requireIdentifier(body.isni, normaliseIsni, 'isni', 'ISNI (check character mismatch or wrong length)'),
        payout_currency: currency,
        minimum_payout_micros:
          body.minimumPayout === undefined
            ? 0n
            : parseAmount(body.minimumPayout, { param: 'minimumPayout', places: minorUnit(currency), negative: false }),
        opening_balance_micros:
          body.openingBalance === undefined
            ? 0n
            : parseAmount(body.openingBalance, { param: 'openingBalance', places: MICRO_PLACES }),
        created_at: clock.now(),
        created_by: ctx.actor.userId,
      }
      const creator = presentCreator(row)
      return db.tx(
        ctx,
        async (tx) => {
          await insertCreator(tx, row)
          await audit.append(tx, ctx, 'creator.created', { type: 'creator', id: row.id }, creator)
          return creator
        },
        { commitWith: answer },
      )
    },

    async get(ctx, id) {
      const row = await db.read(ctx.orgId, (reader) => findCreator(reader, ctx.orgId, id))
      if (!row) throw notFound('creator')
      return presentCreator(row)
    },

    async list(ctx, query) {
      const after = decodeCursor(query.cursor, {}, 2)
      const rows = await db.read(ctx.orgId, (reader) => listCreators(reader, ctx.orgId, after, query.limit))
      return toPage(rows, query.limit, (row) => [iso(row.created_at), row.id], presentCreator, {})
    },
  }
}
