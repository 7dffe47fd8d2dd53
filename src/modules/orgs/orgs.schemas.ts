import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'

export const Email = Type.String({ format: 'email', maxLength: 254, example: 'ada@example.com' })
const Password = Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters' })
export const Role = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('finance'),
  Type.Literal('editor'),
  Type.Literal('viewer'),
])
const OrgId = Type.String({ pattern: idPattern('org') })

export const SignupBody = component(
  'SignUpRequest',
  Type.Object(
    { email: Email, password: Password, name: Type.String({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: false },
  ),
)
export type SignupBody = Static<typeof SignupBody>

export const LoginBody = component(
  'LogInRequest',
  Type.Object(
    { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: false },
  ),
)
export type LoginBody = Static<typeof LoginBody>

export const UserSchema = component(
  'User',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('usr') }),
      email: Type.Union([Type.String(), Type.Null()]),
      name: Type.String(),
      createdAt: Timestamp,
    },
    {},
  ),
)
export type User = Static<typeof UserSchema>

export const LoginResponse = component(
  'Session',
  Type.Object(
    {
      token: Type.String({ pattern: '^sess_', description: 'Session token: send as Authorization: Bearer <token>' }),
      expiresAt: Type.String({
        format: 'date-time',
        description: 'When the session ends unless used (each use extends it, up to 7 days in all)',
      }),
      user: UserSchema,
      activeOrgId: Type.Union([OrgId, Type.Null()]),
    },
    {},
  ),
)
export type LoginResponse = Static<typeof LoginResponse>

export const CookieSessionResponse = component(
  'CookieSession',
  Type.Object(
    {
      expiresAt: Type.String({
        format: 'date-time',
        description: 'When the session ends unless used (each use extends it, up to 7 days in all)',
      }),
      user: UserSchema,
      activeOrgId: Type.Union([OrgId, Type.Null()]),
    },
    {
      description:
        'A session held in an HttpOnly cookie for the web app: the token is in Set-Cookie only, never in the body.',
    },
  ),
)
export type CookieSessionResponse = Static<typeof CookieSessionResponse>

export const MembershipSchema = component(
  'Membership',
  Type.Object({
    orgId: OrgId,
    name: Type.String(),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
    region: Type.String(),
    role: Role,
    joinedAt: Timestamp,
  }),
)

export const MeResponse = component(
  'Me',
  Type.Object(
    { user: UserSchema, memberships: Type.Array(MembershipSchema), activeOrgId: Type.Union([OrgId, Type.Null()]) },
    {},
  ),
)
export type Me = Static<typeof MeResponse>

export const CreateOrgBody = component(
  'CreateOrgRequest',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      environment: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('production')])),
      region: Type.Optional(Type.Union([Type.Literal('us-east'), Type.Literal('eu-west'), Type.Literal('au-east')])),
    },
    { additionalProperties: false },
  ),
)
export type CreateOrgBody = Static<typeof CreateOrgBody>

export const OrgSchema = component(
  'Org',
  Type.Object(
    {
      id: OrgId,
      name: Type.String(),
      environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
      region: Type.String(),
      createdAt: Timestamp,
      createdBy: Type.String(),
    },
    {},
  ),
)
export type Org = Static<typeof OrgSchema>

export const CreatedOrgSchema = component(
  'CreatedOrg',
  Type.Object(
    {
      ...OrgSchema.properties,
      activeOrgId: Type.Union([OrgId, Type.Null()], {
        description:
          'The session’s active org after this request: the new org, which /api routes now act on ' +
          '(switch back with POST /api/session/active-org)',
      }),
    },
    { description: 'The org created, and the session’s active org, which creating it changed' },
  ),
)
export type CreatedOrg = Static<typeof CreatedOrgSchema>

export const ActiveOrgBody = component(
  'SetActiveOrgRequest',
  Type.Object({ orgId: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
)

export const MemberSchema = component(
  'Member',
  Type.Object(
    {
      userId: Type.String(),
      name: Type.String(),
      email: Type.Union([Type.String(), Type.Null()]),
      role: Role,
      joinedAt: Timestamp,
    },
    {},
  ),
)
export type Member = Static<typeof MemberSchema>
export const MemberList = ListEnvelope(MemberSchema)
export const MemberQuery = ListQuery({})
export type MemberQuery = Static<typeof MemberQuery>

export const InviteBody = component(
  'InviteMemberRequest',
  Type.Object({ email: Email, role: Role }, { additionalProperties: false }),
)
export type InviteBody = Static<typeof InviteBody>

export const InvitationSchema = component(
  'Invitation',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('inv') }),
      email: Type.String(),
      role: Role,
      expiresAt: Timestamp,
      token: Type.Optional(
        Type.String({
          description:
            'Shown once, in the response that created the invitation (an idempotent replay omits it); the invitation link carries it',
        }),
      ),
    },
    {},
  ),
)
export type Invitation = Static<typeof InvitationSchema>

export const AcceptBody = component(
  'AcceptInvitationRequest',
  Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
)

export const MembershipRecord = component(
  'MembershipRecord',
  Type.Object({ orgId: OrgId, userId: Type.String(), role: Role, joinedAt: Timestamp }, {}),
)
export type MembershipRecord = Static<typeof MembershipRecord>
