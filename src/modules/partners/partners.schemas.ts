import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { SCOPES } from '../../platform/permissions.js'
import { REGIONS } from '../../config.js'
import { Timestamp } from '../../platform/timestamp.js'
import { CookieSessionResponse, LoginResponse } from '../orgs/index.js'

export const PARTNER_TIERS = ['api_partner', 'white_label', 'platform_integrator'] as const
export const PARTNER_STATUSES = ['sandbox', 'in_review', 'changes_requested', 'live', 'rejected', 'suspended'] as const
export const STEP_KEYS = [
  'application',
  'agreement',
  'brand_and_domain',
  'provisioning',
  'integration_testing',
  'go_live',
] as const
export const STEP_STATUSES = ['pending', 'waiting_review', 'changes_requested', 'done'] as const

const PartnerId = Type.String({ pattern: idPattern('prt'), example: 'prt_2JD2YB6X8Q0W3M5N7P9R1T3V5' })
const Tier = Type.Enum(PARTNER_TIERS, {
  type: 'string',
  description: 'api_partner, white_label (its own deployment) or platform_integrator (custom limits, the SDK)',
})
const Status = Type.Enum(PARTNER_STATUSES, { type: 'string', description: 'Where the partner is in the program' })
const Region = Type.Enum(REGIONS, { type: 'string' })
const Reason = Type.String({ minLength: 1, maxLength: 2000 })
const Limits = Type.Object({ perMinute: Type.Integer(), burst: Type.Integer() })

export const PartnerSignupBody = component(
  'PartnerSignUpRequest',
  Type.Object(
    {
      email: Type.String({ format: 'email', maxLength: 254, example: 'ada@example.com' }),
      password: Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters' }),
      name: Type.String({ minLength: 1, maxLength: 200 }),
      company: Type.String({ minLength: 1, maxLength: 200 }),
      tier: Tier,
      region: Type.Optional(Region),
    },
    { additionalProperties: false },
  ),
)
export type PartnerSignupBody = Static<typeof PartnerSignupBody>

export const OnboardingStep = Type.Object({
  key: Type.Enum(STEP_KEYS, { type: 'string' }),
  status: Type.Enum(STEP_STATUSES, { type: 'string' }),
  completedAt: Type.Optional(Timestamp),
  expectedReadyAt: Type.Optional(
    Type.String({ format: 'date', description: 'provisioning: three business days after the request' }),
  ),
  detail: Type.Optional(Type.String({ description: 'What the step is waiting for' })),
  checks: Type.Optional(
    Type.Object(
      {
        tokenIssuedAt: Type.Union([Timestamp, Type.Null()]),
        feedReadAt: Type.Union([Timestamp, Type.Null()]),
        webhookDeliveredAt: Type.Union([Timestamp, Type.Null()]),
      },
      { description: 'integration_testing: when the sandbox credentials did each for real' },
    ),
  ),
})
export type OnboardingStep = Static<typeof OnboardingStep>

export const ApplicationVersionSchema = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  website: Type.String(),
  useCase: Type.String(),
  expectedMonthlyRequests: Type.Integer(),
  submittedAt: Timestamp,
  submittedBy: Type.String({ pattern: idPattern('usr') }),
})

export const PartnerSchema = component(
  'Partner',
  Type.Object({
    id: PartnerId,
    company: Type.String(),
    tier: Tier,
    region: Region,
    status: Status,
    statusReason: Type.Union([Type.String(), Type.Null()], {
      description: 'The operator’s reason for the last change request, rejection or suspension',
    }),
    sandboxOrgId: Type.String({ pattern: idPattern('org') }),
    sandboxClientId: Type.String({ pattern: idPattern('cli') }),
    onboarding: Type.Object({
      steps: Type.Array(OnboardingStep),
      currentlyDue: Type.Array(Type.Enum(STEP_KEYS, { type: 'string' })),
    }),
    reviewExpectedBy: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'While in review: the day an operator answers by (three business days after the request)',
    }),
    applications: Type.Optional(
      Type.Array(ApplicationVersionSchema, {
        description: 'Every version of the application, the newest first (one partner’s answers; not in lists)',
      }),
    ),
    limits: Type.Object({
      sandbox: Limits,
      production: Type.Union([Limits, Type.Null()], {
        description: 'Limits of production clients (platform integrators: set by the operator at approval)',
      }),
    }),
    createdAt: Timestamp,
  }),
)
export type Partner = Static<typeof PartnerSchema>

export const SandboxClient = Type.Object({
  id: Type.String({ pattern: idPattern('cli') }),
  secret: Type.String({ pattern: '^cs_test_', description: 'Shown once' }),
  scopes: Type.Array(Type.Enum(SCOPES, { type: 'string' })),
  tier: Type.Literal('api_partner_sandbox'),
})

export const PartnerSignupResponse = component(
  'PartnerSignUp',
  Type.Object({
    ...LoginResponse.properties,
    partner: PartnerSchema,
    sandboxClient: SandboxClient,
  }),
)
export type PartnerSignupResponse = Static<typeof PartnerSignupResponse>

export const PartnerApplyBody = component(
  'PartnerApplyRequest',
  Type.Object(
    { company: PartnerSignupBody.properties.company, tier: Tier, region: Type.Optional(Region) },
    { additionalProperties: false },
  ),
)
export type PartnerApplyBody = Static<typeof PartnerApplyBody>

export const PartnerApplyResponse = component(
  'PartnerApply',
  Type.Object({
    user: CookieSessionResponse.properties.user,
    activeOrgId: Type.String({ description: 'The new sandbox org, now the session’s active org' }),
    partner: PartnerSchema,
    sandboxClient: SandboxClient,
  }),
)
export type PartnerApplyResponse = Static<typeof PartnerApplyResponse>

export const PartnerCookieSignupResponse = component(
  'PartnerCookieSignUp',
  Type.Object({
    ...CookieSessionResponse.properties,
    partner: PartnerSchema,
    sandboxClient: SandboxClient,
  }),
)
export type PartnerCookieSignupResponse = Static<typeof PartnerCookieSignupResponse>

export const ApplicationBody = component(
  'PartnerApplication',
  Type.Object(
    {
      website: Type.String({ format: 'uri', maxLength: 500, pattern: '^https?://' }),
      useCase: Type.String({ minLength: 1, maxLength: 4000 }),
      expectedMonthlyRequests: Type.Integer({ minimum: 0, maximum: 1_000_000_000_000 }),
    },
    { additionalProperties: false },
  ),
)
export type ApplicationBody = Static<typeof ApplicationBody>

export const AgreementSchema = component(
  'PartnerAgreement',
  Type.Object({
    version: Type.String(),
    text: Type.String(),
    sha256: Type.String({ description: 'SHA-256 of the text (lowercase hex): what signing records' }),
  }),
)
export type Agreement = Static<typeof AgreementSchema>

export const SignAgreementBody = component(
  'SignPartnerAgreementRequest',
  Type.Object(
    {
      version: Type.String({ minLength: 1, maxLength: 50 }),
      signerName: Type.String({ minLength: 1, maxLength: 200 }),
      accepted: Type.Literal(true),
    },
    { additionalProperties: false },
  ),
)
export type SignAgreementBody = Static<typeof SignAgreementBody>

export const AgreementEvidenceSchema = Type.Object({
  version: Type.String(),
  signerName: Type.String(),
  userId: Type.String(),
  signedAt: Timestamp,
  address: Type.String(),
  textSha256: Type.String(),
})

export const ReviewRequestSchema = component(
  'PartnerReviewRequest',
  Type.Object({
    id: Type.String({ pattern: idPattern('prq') }),
    partnerId: PartnerId,
    status: Type.Union([
      Type.Literal('open'),
      Type.Literal('approved'),
      Type.Literal('changes_requested'),
      Type.Literal('rejected'),
    ]),
    requestedAt: Timestamp,
    requestedBy: Type.String(),
    decidedAt: Type.Union([Timestamp, Type.Null()]),
    decidedBy: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
  }),
)
export type ReviewRequest = Static<typeof ReviewRequestSchema>

export const OperatorPartnerSchema = component(
  'OperatorPartner',
  Type.Object({
    ...PartnerSchema.properties,
    user: Type.Object({ id: Type.String(), email: Type.Union([Type.String(), Type.Null()]), name: Type.String() }),
    application: Type.Union([
      Type.Object({
        website: Type.String(),
        useCase: Type.String(),
        expectedMonthlyRequests: Type.Integer(),
        submittedAt: Timestamp,
      }),
      Type.Null(),
    ]),
    agreement: Type.Union([AgreementEvidenceSchema, Type.Null()]),
    reviewRequests: Type.Array(ReviewRequestSchema),
  }),
)
export type OperatorPartner = Static<typeof OperatorPartnerSchema>

export const OperatorPartnerQuery = ListQuery({ status: Type.Optional(Status) })
export type OperatorPartnerQuery = Static<typeof OperatorPartnerQuery>

export const OperatorPartnerList = ListEnvelope(PartnerSchema)

export const PartnerParams = Type.Object({ id: PartnerId }, { additionalProperties: false })

export const ApproveBody = component(
  'ApprovePartnerRequest',
  Type.Object(
    {
      rateLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests per minute' })),
      burst: Type.Optional(Type.Integer({ minimum: 1, maximum: 200_000 })),
    },
    { additionalProperties: false, description: 'Platform integrators: their production limits (both required)' },
  ),
)
export type ApproveBody = Static<typeof ApproveBody>

export const ReasonBody = component(
  'OperatorReasonRequest',
  Type.Object({ reason: Reason }, { additionalProperties: false }),
)
export type ReasonBody = Static<typeof ReasonBody>
