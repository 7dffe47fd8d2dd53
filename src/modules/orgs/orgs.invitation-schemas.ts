import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'
import { Role } from './orgs.schemas.js'

const InvitationId = Type.String({ pattern: idPattern('inv') })
const Person = Type.Object({
  userId: Type.String({ pattern: idPattern('usr') }),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
})

export const PendingInvitationSchema = component(
  'PendingInvitation',
  Type.Object({
    id: InvitationId,
    email: Type.String(),
    role: Role,
    invitedBy: Person,
    createdAt: Timestamp,
    sentAt: Timestamp,
    expiresAt: Timestamp,
    expired: Type.Boolean({ description: 'Past expiresAt: send it again to renew the link for 7 days' }),
  }),
)
export type PendingInvitation = Static<typeof PendingInvitationSchema>

export const PendingInvitationList = ListEnvelope(
  PendingInvitationSchema,
  'Invitations not accepted or revoked, newest first',
)
export const PendingInvitationQuery = ListQuery({})
export type PendingInvitationQuery = Static<typeof PendingInvitationQuery>

export const InvitationParams = Type.Object({ id: Type.String({ maxLength: 64 }) })

export const InvitationPreviewSchema = component(
  'InvitationPreview',
  Type.Object({
    orgName: Type.String(),
    email: Type.String({ description: 'Who the invitation is for: accept it signed in with this email' }),
    role: Role,
    inviter: Type.Object({ name: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }),
    expiresAt: Timestamp,
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('expired'), Type.Literal('revoked')],
      { description: 'pending: it can be accepted' },
    ),
  }),
)
export type InvitationPreview = Static<typeof InvitationPreviewSchema>

export const PreviewBody = component(
  'InvitationPreviewRequest',
  Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
)

export const MemberParams = Type.Object({ userId: Type.String({ maxLength: 64 }) })
export const ChangeRoleBody = component(
  'ChangeMemberRoleRequest',
  Type.Object({ role: Role }, { additionalProperties: false }),
)
export type ChangeRoleBody = Static<typeof ChangeRoleBody>
