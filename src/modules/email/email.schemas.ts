import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { EMAIL_KINDS } from './email.kinds.js'

const KindName = Type.Enum(EMAIL_KINDS, { type: 'string', description: 'An email kind' })

export const EmailKindSchema = component(
  'EmailKind',
  Type.Object({
    kind: KindName,
    description: Type.String(),
    security: Type.Boolean({ description: 'Security emails always go; the others follow each person’s choice' }),
    receivedByDefault: Type.Boolean({ description: 'Whether a person gets it before choosing' }),
    variables: Type.Array(
      Type.Object({
        path: Type.String({ description: 'As a template writes it: {{ org.name }}' }),
        description: Type.String(),
        sample: Type.String({ description: 'An example value' }),
      }),
      { description: 'What the kind’s templates may use (brand.name and brand.url too)' },
    ),
  }),
)

export const EmailKindList = component('EmailKindList', Type.Object({ data: Type.Array(EmailKindSchema) }))
export type EmailKindList = Static<typeof EmailKindList>

/** The non-security kinds a person chooses. */
export const CHOSEN_KINDS = ['payout_status', 'webhook_disabled', 'partner_review'] as const
export type ChosenKind = (typeof CHOSEN_KINDS)[number]

export const EmailPreferencesSchema = component(
  'EmailPreferences',
  Type.Object({
    payout_status: Type.Boolean({ description: 'Payouts of your orgs moving (owners and admins)' }),
    webhook_disabled: Type.Boolean({ description: 'A webhook endpoint of your orgs disabled (owners and admins)' }),
    partner_review: Type.Boolean({ description: 'Your partner’s review decisions' }),
  }),
)
export type EmailPreferences = Static<typeof EmailPreferencesSchema>

export const EmailPreferencesBody = component(
  'EmailPreferencesBody',
  Type.Partial(Type.Object(EmailPreferencesSchema.properties), { additionalProperties: false }),
)
export type EmailPreferencesBody = Static<typeof EmailPreferencesBody>
