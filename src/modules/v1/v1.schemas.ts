import { Type } from 'typebox'
import { idPattern } from '../../platform/ids.js'
import { OrgEventList, OrgEventQuery, OrgEventSchema } from '../audit/index.js'
import { MemberList, MemberQuery, OrgSchema } from '../orgs/index.js'
import { component, withExamples } from '../../platform/openapi-components.js'

const ORG = 'org_01JD2YB6X8Q0W3M5N7P9R1T3V5'
const OrgId = Type.String({
  pattern: idPattern('org'),
  description: 'The org the access token was issued for',
  example: ORG,
})

export const OrgParams = Type.Object({ orgId: OrgId })
export const EventParams = Type.Object({
  orgId: OrgId,
  eventId: Type.String({ maxLength: 64, example: 'evt_01JD2YC0A1B2C3D4E5F6G7H8J9' }),
})

const eventExample = {
  id: 'evt_01JD2YC0A1B2C3D4E5F6G7H8J9',
  orgId: ORG,
  action: 'member.invited',
  userId: 'usr_01JD2YB6X8Q0W3M5N7P9R1T3V7',
  createdAt: '2026-11-22T10:15:30.123Z',
  hash: 'sha256:9f2c4e8a1b3d5f7092a4c6e8f0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8',
  sequence: 42,
  resource: { type: 'invitation', id: 'inv_01JD2YC0A1B2C3D4E5F6G7H8JA' },
  data: {
    id: 'inv_01JD2YC0A1B2C3D4E5F6G7H8JA',
    email: 'ada@example.com',
    role: 'editor',
    expiresAt: '2026-11-29T10:15:30.123Z',
  },
}

export const V1Event = withExamples(OrgEventSchema, [eventExample])
export const V1EventList = withExamples(OrgEventList, [
  { data: [eventExample], pagination: { cursor: 'eyJrIjpbNDJdLCJmIjoiUTNfb3ZBcWdCVmFrRnRFQSJ9', hasMore: false } },
])
export const V1EventQuery = OrgEventQuery

export const V1MemberList = withExamples(MemberList, [
  {
    data: [
      {
        userId: 'usr_01JD2YB6X8Q0W3M5N7P9R1T3V7',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        role: 'owner',
        joinedAt: '2026-11-22T10:00:00.000Z',
      },
    ],
    pagination: { cursor: null, hasMore: false },
  },
])
export const V1MemberQuery = MemberQuery

export const V1OrgList = component(
  'OrgList',
  withExamples(Type.Object({ data: Type.Array(OrgSchema) }, { description: 'The orgs the token acts in' }), [
    {
      data: [
        {
          id: 'org_01JD2YB6X8Q0W3M5N7P9R1T3V5',
          name: 'Acme Royalties Sandbox',
          environment: 'sandbox',
          region: 'eu-west',
          createdAt: '2026-11-22T10:00:00.000Z',
          createdBy: 'usr_01JD2YB6X8Q0W3M5N7P9R1T3V7',
        },
      ],
    },
  ]),
)
