import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import { AppError } from './errors.js'

/**
 * The web app's session travels in an HttpOnly cookie that page scripts cannot read. A write
 * authenticated by that cookie must also carry this header, which only a script of the same
 * origin can add without a CORS preflight (which this service never grants), and an Origin
 * equal to PUBLIC_URL's: together they refuse forged cross-site requests.
 */
export const CSRF_HEADER = 'x-oeuvre-csrf'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method)
}

/** `__Host-` (Secure, Path=/, no Domain: no subdomain can overwrite it) when served over HTTPS. */
export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return secure(config) ? '__Host-oeuvre_session' : 'oeuvre_session'
}

function secure(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:')
}

/** The origin pages of this deployment send: PUBLIC_URL's. */
export function publicOrigin(config: Pick<Config, 'publicUrl'>): string {
  return new URL(config.publicUrl).origin
}

/** Refuses a cookie-authenticated (or cookie-issuing) write that lacks the app's CSRF defence. */
export function checkCsrf(request: FastifyRequest, origin: string): void {
  if (isSafeMethod(request.method)) return
  const header = request.headers[CSRF_HEADER]
  if (typeof header !== 'string' || header.length === 0) {
    throw new AppError('csrf_failed', `A write with the session cookie must send the ${CSRF_HEADER} header`, {
      param: CSRF_HEADER,
    })
  }
  const sent = request.headers.origin
  if (sent !== origin) {
    throw new AppError(
      'csrf_failed',
      sent === undefined
        ? `A write with the session cookie must send Origin: ${origin}`
        : `Origin ${sent} is not this service's (${origin})`,
      { param: 'origin' },
    )
  }
}

export function setSessionCookie(
  reply: FastifyReply,
  config: Pick<Config, 'publicUrl'>,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(sessionCookieName(config), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(config),
    path: '/',
    maxAge: maxAgeSeconds,
  })
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, 'publicUrl'>): void {
  reply.clearCookie(sessionCookieName(config), { httpOnly: true, sameSite: 'lax', secure: secure(config), path: '/' })
}
