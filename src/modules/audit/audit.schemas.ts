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

export const OrgEventQuery = ListQuery({
  action: Type.Optional(Type.String({ pattern: '^[a-z_]+(\\.[a-z_]+)+$', maxLength: 100 })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Events created at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Events created before this time' })),
})
export type OrgEventQuery = Static<typeof OrgEventQuery>

export const EventIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) })

/** What an org event is about: a record's type and id. */
export interface Resource {
  type: string
  id: string
}
