import { WebhookVerificationError } from './errors.js'
import { concat, fromBase64, fromHex, utf8 } from './encoding.js'
import type { OrgEvent } from './generated/resources.js'
import { webCrypto, type WebCrypto } from './web-crypto.js'

/** A delivery's body: the org event and, when there is one, the resource it is about. */
export interface WebhookEvent {
  /** The org event's id (`evt_...`). */
  id: string
  /** The kind subscribed to: the event's action, or `audit.emitted`. */
  type: string
  createdAt: string
  orgId: string
  data: { event: OrgEvent; object?: unknown }
}

/** Request headers as Node (`req.headers`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders =
  Headers | Record<string, string | readonly string[] | undefined> | { get(name: string): string | null }

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds (default 300). */
  toleranceSeconds?: number
  /** The time to compare `webhook-timestamp` with (default: now). */
  now?: Date | number
  /** Web Crypto, where the platform has none of its own (Node 18). */
  crypto?: WebCrypto
}

export const DEFAULT_TOLERANCE_SECONDS = 300

type HmacKey = Awaited<ReturnType<WebCrypto['subtle']['importKey']>>

/**
 * Verifies a webhook delivery and returns its parsed body; throws `WebhookVerificationError`
 * when it does not verify. `rawBody` must be the bytes as received (not re-serialised JSON).
 * Each signature the delivery carries must match one of `secrets` (pass the old and the new
 * secret during a rotation): the Standard Webhooks `webhook-signature` over
 * `<webhook-id>.<webhook-timestamp>.<body>`, with the timestamp within the tolerance, and
 * `X-Service-Signature` (`sha256=` + hex HMAC-SHA256 of the body, keyed with the whole secret
 * text). HMACs are compared by Web Crypto's `verify`, in constant time.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const crypto = webCrypto(options.crypto)
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => secret !== '')
  if (keys.length === 0) throw new WebhookVerificationError('no signing secret given', { code: 'secret_missing' })
  const body = typeof rawBody === 'string' ? utf8(rawBody) : new Uint8Array(rawBody)
  const header = headerReader(headers)
  const standard = {
    id: header('webhook-id'),
    timestamp: header('webhook-timestamp'),
    signature: header('webhook-signature'),
  }
  const service = header('x-service-signature')
  const hasStandard = standard.id !== undefined || standard.timestamp !== undefined || standard.signature !== undefined
  if (!hasStandard && service === undefined)
    throw new WebhookVerificationError('the delivery carries no signature header', { code: 'signature_missing' })

  if (hasStandard) {
    if (standard.id === undefined || standard.timestamp === undefined || standard.signature === undefined)
      throw new WebhookVerificationError('webhook-id, webhook-timestamp and webhook-signature go together', {
        code: 'signature_missing',
      })
    checkTimestamp(standard.timestamp, options)
    const signed = concat(utf8(`${standard.id}.${standard.timestamp}.`), body)
    const signatures = standard.signature
      .split(' ')
      .filter((value) => value.startsWith('v1,'))
      .map((value) => fromBase64(value.slice(3)))
      .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== undefined)
    const secretKeys = keys.map((secret) => fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret))
    if (!(await anyMatch(crypto, secretKeys, signatures, signed)))
      throw new WebhookVerificationError('webhook-signature does not match the body with any of the secrets', {
        code: 'signature_mismatch',
      })
  }

  if (service !== undefined) {
    const signatures = service
      .split(',')
      .map((value) => value.trim())
      .filter((value) => value.startsWith('sha256='))
      .map((value) => fromHex(value.slice(7)))
      .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== undefined)
    if (!(await anyMatch(crypto, keys.map(utf8), signatures, body)))
      throw new WebhookVerificationError('X-Service-Signature does not match the body with any of the secrets', {
        code: 'signature_mismatch',
      })
  }

  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent
  } catch (error) {
    throw new WebhookVerificationError('the delivery body is not JSON', { code: 'invalid_body', cause: error })
  }
}

function checkTimestamp(value: string, options: VerifyWebhookOptions): void {
  if (!/^\d+$/.test(value))
    throw new WebhookVerificationError('webhook-timestamp is not a Unix time in seconds', { code: 'invalid_timestamp' })
  const now = options.now === undefined ? Date.now() : Number(options.now)
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (Math.abs(now / 1000 - Number(value)) > tolerance)
    throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} s from now`, {
      code: 'timestamp_outside_tolerance',
    })
}

async function anyMatch(
  crypto: WebCrypto,
  secrets: (Uint8Array<ArrayBuffer> | undefined)[],
  signatures: Uint8Array<ArrayBuffer>[],
  signed: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  for (const secret of secrets) {
    if (!secret || secret.length === 0) continue
    const key: HmacKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ])
    for (const signature of signatures) if (await crypto.subtle.verify('HMAC', key, signature, signed)) return true
  }
  return false
}

/** A case-insensitive lookup; a repeated header's values are joined as HTTP joins them. */
function headerReader(headers: WebhookHeaders): (name: string) => string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const getter = headers as { get(name: string): string | null }
    return (name) => getter.get(name) ?? undefined
  }
  const lower = new Map<string, string>()
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>))
    if (value !== undefined) lower.set(name.toLowerCase(), typeof value === 'string' ? value : value.join(', '))
  return (name) => lower.get(name)
}
