import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'

export const OrgEventSchema = component(
  'OrgEvent',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('evt') }),
      orgId: Type.String({ pattern: idPattern('org') }),
      action: Type.String({ pattern: '^[a-z_]+(\\.[a-z_]+)+$', example: 'catalog.created' }),
      userId: Type.String({ pattern: idPattern('usr') }),
      createdAt: Timestamp,
      hash: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
      sequence: Type.Integer({ minimum: 1 }),
      resource: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
      data: Type.Unknown(),
    },
    { description: 'One entry of the org audit log, hash-chained to the previous one' },
  ),
)
export type OrgEvent = Static<typeof OrgEventSchema>

export const OrgEventDetailSchema = component(
  'OrgEventDetail',
  Type.Object(
    {
      ...OrgEventSchema.properties,
      previousHash: Type.String({
        pattern: '^sha256:[0-9a-f]{64}$',
        description: 'The hash of the event before it (sequence - 1); for sequence 1, sha256: and 64 zeros',
      }),
    },
    { description: 'One org event with the hash it is chained to: enough to recompute its own hash' },
  ),
)
export type OrgEventDetail = Static<typeof OrgEventDetailSchema>

export const OrgEventList = ListEnvelope(OrgEventSchema, 'Org events, oldest first; the cursor is always returned')

const EventFilters = {
  action: Type.Optional(
    Type.String({
      pattern: '^[a-z_]+(\\.[a-z_]+)*$',
      maxLength: 100,
      description: 'An action (payout.paid), or an object without a dot: payout finds every payout.* action',
    }),
  ),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Events created at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Events created before this time' })),
}

export const OrgEventQuery = ListQuery(EventFilters)
export type OrgEventQuery = Static<typeof OrgEventQuery>

/** The audit log as people read it: the feed's filters, newest first when asked. */
export const AuditLogQuery = ListQuery({
  ...EventFilters,
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
      description: 'asc (the default: oldest first, the cursor always returned so you can poll) or desc (newest first)',
    }),
  ),
})
export type AuditLogQuery = Static<typeof AuditLogQuery>

export const ActorSchema = component(
  'AuditActor',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('usr') }),
      kind: Type.Union([Type.Literal('person'), Type.Literal('service'), Type.Literal('system')]),
      name: Type.String({
        description: 'A person’s name as last set (kept after they leave the org), or the client’s',
      }),
      email: Type.Union([Type.String(), Type.Null()], {
        description: 'A person’s email; null for a client or the system',
      }),
    },
    { description: 'Who an event’s userId is' },
  ),
)
export type Actor = Static<typeof ActorSchema>

export const AuditLogPage = component(
  'AuditLogPage',
  Type.Object(
    {
      data: Type.Array(OrgEventSchema),
      pagination: OrgEventList.properties.pagination,
      actors: Type.Array(ActorSchema, { description: 'Every userId of this page, once' }),
    },
    { description: 'A page of the audit log, with who did each thing' },
  ),
)
export type AuditLogPage = Static<typeof AuditLogPage>

export const EventIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) })

/** What an org event is about: a record's type and id. */
export interface Resource {
  type: string
  id: string
}
