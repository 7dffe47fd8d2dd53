import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const WebhookKind = Type.String({
  pattern: '^(\\*|[a-z_]+(\\.[a-z_]+)+)$',
  maxLength: 100,
  description: 'An org event action (catalog.created, ...), audit.emitted (every org event) or * (everything)',
  example: 'payout.paid',
})

export const WebhookSchema = component(
  'Webhook',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('whk') }),
      url: Type.String({ format: 'uri' }),
      events: Type.Array(WebhookKind),
      status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
      disabledReason: Nullable(Type.String()),
      previousSecretExpiresAt: Nullable(
        Type.String({
          format: 'date-time',
          description:
            'Until then X-Service-Signature is signed with the previous secret and webhook-signature carries both',
        }),
      ),
      createdAt: Timestamp,
      createdBy: Type.String(),
      updatedAt: Timestamp,
    },
    { description: 'A webhook endpoint registration' },
  ),
)
export type Webhook = Static<typeof WebhookSchema>

export const WebhookWithSecret = component(
  'WebhookWithSecret',
  Type.Object(
    {
      ...WebhookSchema.properties,
      signingSecret: Type.Optional(
        Type.String({
          pattern: '^whsec_',
          description:
            'Shown only in the response that created or rotated it (an idempotent replay omits it): store it to verify deliveries',
        }),
      ),
    },
    { description: 'A webhook endpoint with its signing secret (shown once)' },
  ),
)
export type WebhookWithSecret = Static<typeof WebhookWithSecret>

export const CreateWebhookBody = component(
  'CreateWebhookRequest',
  Type.Object(
    {
      url: Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'https URL that receives deliveries',
        example: 'https://example.com/hooks/oeuvre',
      }),
      events: Type.Array(WebhookKind, { minItems: 1, maxItems: 64 }),
    },
    { additionalProperties: false },
  ),
)
export type CreateWebhookBody = Static<typeof CreateWebhookBody>

export const AttemptSchema = component(
  'WebhookAttempt',
  Type.Object({
    attempt: Type.Integer({ minimum: 1 }),
    at: Timestamp,
    trigger: Type.Union([Type.Literal('scheduled'), Type.Literal('redelivery')]),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('blocked')]),
    httpStatus: Nullable(Type.Integer()),
    latencyMs: Type.Integer({ minimum: 0 }),
    requestBody: Type.String({
      description: 'The body sent: the first 4 KiB of the delivery payload (the same signed bytes on every attempt)',
    }),
    responseBody: Nullable(Type.String({ description: 'The response, truncated to 64 KiB' })),
    error: Nullable(Type.String()),
    address: Nullable(Type.String({ description: 'The IP address the attempt connected to (or was refused)' })),
  }),
)
export type Attempt = Static<typeof AttemptSchema>

export const DeliverySchema = component(
  'WebhookDelivery',
  Type.Object(
    {
      id: Type.String({
        pattern: idPattern('whd'),
        description: 'Also the X-Service-Delivery and webhook-id headers, the same on every retry',
      }),
      webhookId: Type.String({ pattern: idPattern('whk') }),
      eventId: Type.String({ pattern: idPattern('evt') }),
      type: Type.String(),
      status: Type.Union([
        Type.Literal('pending'),
        Type.Literal('succeeded'),
        Type.Literal('failed'),
        Type.Literal('blocked'),
      ]),
      attemptCount: Type.Integer({ minimum: 0 }),
      nextAttemptAt: Nullable(Timestamp),
      lastHttpStatus: Nullable(Type.Integer()),
      lastError: Nullable(Type.String()),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      finishedAt: Nullable(Timestamp),
      attempts: Type.Array(AttemptSchema),
    },
    { description: 'One event sent to one endpoint, with every attempt' },
  ),
)
export type Delivery = Static<typeof DeliverySchema>

/** Deliveries one "resend every failed delivery" call queues again. */
export const REDELIVER_FAILED_LIMIT = 500

export const RedeliverFailedBody = component(
  'RedeliverFailedRequest',
  Type.Object(
    { since: Timestamp },
    { additionalProperties: false, description: 'Failed deliveries created at or after this time are sent again' },
  ),
)
export type RedeliverFailedBody = Static<typeof RedeliverFailedBody>

export const RedeliverFailedResult = component(
  'RedeliverFailed',
  Type.Object({
    redelivered: Type.Integer({
      minimum: 0,
      description: 'Failed deliveries queued again, each a new run of the schedule',
    }),
    more: Type.Boolean({
      description: `True when more than ${REDELIVER_FAILED_LIMIT} failed deliveries matched: call again for the rest`,
    }),
  }),
)
export type RedeliverFailedResult = Static<typeof RedeliverFailedResult>

export const WebhookList = ListEnvelope(WebhookSchema, 'Webhook endpoints, newest first')
export const DeliveryList = ListEnvelope(DeliverySchema, 'Deliveries to this endpoint, newest first')

export const WebhookListQuery = ListQuery({})
export type WebhookListQuery = Static<typeof WebhookListQuery>

export const DeliveryListQuery = ListQuery({
  status: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('blocked')]),
  ),
})
export type DeliveryListQuery = Static<typeof DeliveryListQuery>
