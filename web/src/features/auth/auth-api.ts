import { api, unwrap } from '../../api/client'

export interface Credentials {
  email: string
  password: string
}

/** The web app's sign-in: the session goes into an HttpOnly cookie (the login page and the sign-in dialog). */
export const logInWithCookie = (body: Credentials) => unwrap(api.POST('/api/auth/login/cookie', { body }))

export const signUpWithCookie = (body: Credentials & { name: string }) =>
  unwrap(api.POST('/api/auth/signup/cookie', { body }))

export const logOut = () => unwrap(api.POST('/api/auth/logout'))

/** Which org the session acts on (the org switcher; the sign-in dialog puts back the org the page was in). */
export const setActiveOrg = (orgId: string) => unwrap(api.POST('/api/session/active-org', { body: { orgId } }))

/** The labels of the sign-in fields, for the API's messages. */
export const CREDENTIAL_LABELS = { email: 'Email', password: 'Password' } as const

/** Only a path of this app: never an open redirect to another site. */
export function safeRedirect(target: string | undefined): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : '/catalog'
}

/** "Forgot password?": the API answers 202 whatever the email, and emails a link when the account exists. */
export const requestPasswordReset = (email: string) => unwrap(api.POST('/api/auth/password-reset', { body: { email } }))

/** A new password with the emailed link's token (once; every session of the person ends). */
export const confirmPasswordReset = (body: { token: string; password: string }) =>
  unwrap(api.POST('/api/auth/password-reset/confirm', { body }))
