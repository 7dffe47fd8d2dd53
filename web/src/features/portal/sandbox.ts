import type { PartnerApplyResult, PartnerSignup } from './portal-api'

/**
 * A partner's new sandbox, as the sign-up or the application answered it: what the first API call
 * needs (the org id, the client id and, this once, its secret).
 */
export interface Sandbox {
  company: string
  tier: PartnerSignup['partner']['tier']
  region: string
  orgId: string
  clientId: string
  scopes: string[]
  /** Null when the API answered without it (a replayed application): rotate the credential for a new one. */
  secret: string | null
}

export function sandboxOf(answer: PartnerSignup | PartnerApplyResult): Sandbox {
  return {
    company: answer.partner.company,
    tier: answer.partner.tier,
    region: answer.partner.region,
    orgId: answer.partner.sandboxOrgId,
    clientId: answer.sandboxClient.id,
    scopes: answer.sandboxClient.scopes,
    secret: (answer.sandboxClient as { secret?: string }).secret ?? null,
  }
}

/**
 * The secret is shown once: until the person says they saved it, it is kept in this tab's
 * sessionStorage (gone when the tab closes), so a reload shows it again rather than losing it.
 */
const KEY = 'oeuvre.sandbox-unsaved'

export function unsavedSandbox(): Sandbox | null {
  try {
    const kept = window.sessionStorage.getItem(KEY)
    return kept ? (JSON.parse(kept) as Sandbox) : null
  } catch {
    return null
  }
}

export function keepUnsaved(sandbox: Sandbox): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(sandbox))
  } catch {
    // Storage refused (private mode, full): the page still warns before it is left.
  }
}

export function forgetUnsaved(): void {
  try {
    window.sessionStorage.removeItem(KEY)
  } catch {
    // Nothing was kept.
  }
}
