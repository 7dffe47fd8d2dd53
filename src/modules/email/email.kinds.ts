/**
 * The emails Oeuvre sends, and what each one's templates may use. A template naming a variable
 * or filter its kind does not offer is refused when it is loaded (at start) or submitted.
 */

export const EMAIL_KINDS = [
  'invitation',
  'password_reset',
  'password_changed',
  'payout_status',
  'partner_review',
  'webhook_disabled',
  'operator_invite',
] as const
export type EmailKind = (typeof EMAIL_KINDS)[number]

/** A variable a kind's templates may use, by its path (`org.name`). */
export interface EmailVariable {
  path: string
  description: string
  /** A value for previews and tests. */
  sample: string
}

export interface EmailKindSpec {
  kind: EmailKind
  description: string
  /** Security emails always go; the others follow each person's choice. */
  security: boolean
  /** Whether a person receives it when they have not chosen (non-security kinds). */
  receivedByDefault: boolean
  variables: EmailVariable[]
}

/** Every kind's templates may also use these: the product (or the white-label brand) sending it. */
export const COMMON_VARIABLES: EmailVariable[] = [
  { path: 'brand.name', description: 'The product sending the email', sample: 'Oeuvre' },
  { path: 'brand.url', description: 'Its address (the app)', sample: 'https://app.oeuvre.example' },
]

const v = (path: string, description: string, sample: string): EmailVariable => ({ path, description, sample })

export const EMAIL_KIND_SPECS: Record<EmailKind, EmailKindSpec> = {
  invitation: {
    kind: 'invitation',
    description: 'To the person invited to an org: who invited them, to which org, as what, and the link to accept',
    security: true,
    receivedByDefault: true,
    variables: [
      v('org.name', 'The org they are invited to', 'Demo Label'),
      v('inviter.name', 'Who invited them', 'Ada Lovelace'),
      v('inviter.email', 'The inviter’s email', 'ada@example.com'),
      v('role', 'The role they will have (owner, admin, finance, editor, viewer)', 'editor'),
      v('link', 'The invitation page, where they accept', 'https://app.oeuvre.example/invitations/accept?token=…'),
      v('expiresAt', 'When the link stops working (ISO 8601 UTC)', '2026-12-09T10:00:00.000Z'),
    ],
  },
  password_reset: {
    kind: 'password_reset',
    description: 'To a person who asked to reset their password: a single-use link, valid 60 minutes',
    security: true,
    receivedByDefault: true,
    variables: [
      v('user.name', 'The account’s name', 'Ada Lovelace'),
      v('link', 'The page that sets a new password', 'https://app.oeuvre.example/reset-password?token=…'),
      v('expiresInMinutes', 'How long the link works', '60'),
    ],
  },
  password_changed: {
    kind: 'password_changed',
    description: 'To a person whose password was just changed (every session of theirs was ended)',
    security: true,
    receivedByDefault: true,
    variables: [
      v('user.name', 'The account’s name', 'Ada Lovelace'),
      v('changedAt', 'When (ISO 8601 UTC)', '2026-12-02T10:15:30.123Z'),
    ],
  },
  payout_status: {
    kind: 'payout_status',
    description:
      'A payout moved (created, in transit, paid, failed, canceled): to the creator’s contact email, and to owners and admins who chose it',
    security: false,
    receivedByDefault: false,
    variables: [
      v('org.name', 'The org paying', 'Demo Label'),
      v('creator.name', 'The creator paid', 'Mira Vos'),
      v('payout.id', 'The payout', 'po_01JZ…'),
      v('payout.amount', 'Its amount, a decimal string', '125.40'),
      v('payout.currency', 'Its currency (ISO 4217)', 'EUR'),
      v('payout.status', 'Its new status', 'paid'),
      v('payout.failureMessage', 'Why it failed (failed payouts only; empty otherwise)', ''),
      v('link', 'The payout in the app', 'https://app.oeuvre.example/payouts/po_…'),
    ],
  },
  partner_review: {
    kind: 'partner_review',
    description:
      'The partner program’s review: submitted, changes requested (with the reason), approved, rejected, suspended, resumed',
    security: false,
    receivedByDefault: true,
    variables: [
      v('partner.company', 'The partner company', 'Acme Integrations'),
      v('decision', 'submitted, changes_requested, approved, rejected, suspended or resumed', 'changes_requested'),
      v('reason', 'The reviewer’s reason (empty when none)', 'Describe how you store our tokens.'),
      v('link', 'The partner portal', 'https://app.oeuvre.example/portal'),
    ],
  },
  webhook_disabled: {
    kind: 'webhook_disabled',
    description: 'A webhook endpoint was disabled after failing (or answering 410): to the org’s owners and admins',
    security: false,
    receivedByDefault: true,
    variables: [
      v('org.name', 'The org', 'Demo Label'),
      v('webhook.id', 'The endpoint', 'whk_01JZ…'),
      v('webhook.url', 'Its URL', 'https://hooks.example.com/oeuvre'),
      v('lastError', 'What its last attempt got', 'HTTP 503'),
      v('link', 'The endpoint in the app', 'https://app.oeuvre.example/settings/webhooks/whk_…'),
    ],
  },
  operator_invite: {
    kind: 'operator_invite',
    description: 'To an operator created by `oeuvre operators add --create`: a single-use link to set a password',
    security: true,
    receivedByDefault: true,
    variables: [
      v('link', 'The page that sets the password', 'https://app.oeuvre.example/reset-password?token=…'),
      v('expiresInMinutes', 'How long the link works', '1440'),
    ],
  },
}

export function isEmailKind(value: string): value is EmailKind {
  return (EMAIL_KINDS as readonly string[]).includes(value)
}

/** Sample variables of a kind, nested by path (`{ org: { name } }`), for previews and tests. */
export function sampleVariables(kind: EmailKind): Record<string, unknown> {
  const nested: Record<string, unknown> = {}
  for (const variable of [...COMMON_VARIABLES, ...EMAIL_KIND_SPECS[kind].variables]) {
    const parts = variable.path.split('.')
    let at = nested
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>
    at[parts.at(-1)!] = variable.sample
  }
  return nested
}
