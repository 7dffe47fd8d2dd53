import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type EmailKind = Schemas['EmailKind']
export type EmailPreferences = Schemas['EmailPreferences']
export type ChosenKind = keyof EmailPreferences

/** The emails the service sends: which are security emails (always sent) and what each is. */
export const emailKindsQuery = {
  queryKey: ['email-kinds'] as const,
  queryFn: () => unwrap(api.GET('/api/email-kinds')),
  staleTime: Infinity,
}

const preferencesKey = ['account', 'email-preferences'] as const

/** The signed-in person's choice of the non-security emails. */
export const emailPreferencesQuery = {
  queryKey: preferencesKey,
  queryFn: () => unwrap(api.GET('/api/account/email-preferences')),
}

/** Saves the choices (all three sent: what the form shows is what is kept). */
export function useSaveEmailPreferences() {
  return useWrite({
    request: (body: EmailPreferences, headers) => unwrap(api.PUT('/api/account/email-preferences', { body, headers })),
    invalidates: [preferencesKey],
  })
}

/** The kinds a person chooses, by name (the API's keys stay the keys). */
export const CHOSEN_KIND_NAMES: Record<ChosenKind, string> = {
  payout_status: 'Payouts moving',
  webhook_disabled: 'A webhook endpoint disabled',
  partner_review: 'Partner review decisions',
}

/** The security emails, which always go, by name. */
export const SECURITY_KIND_NAMES: Record<string, string> = {
  invitation: 'invitations to an organisation',
  password_reset: 'password reset links',
  password_changed: 'notices that your password changed',
  operator_invite: 'an operator’s first password link',
}

export const isChosenKind = (kind: string): kind is ChosenKind => kind in CHOSEN_KIND_NAMES
