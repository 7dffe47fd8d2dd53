import { lookup as dnsLookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'
import { AppError } from '../../platform/errors.js'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to every address it has (injectable: tests control DNS). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>

export const systemLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }))

const RANGE_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10) address',
  private: 'a private address',
  reserved: 'a reserved or documentation address',
  uniqueLocal: 'a unique local (fc00::/7) address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'a NAT64 (64:ff9b::/96) address',
  '6to4': 'a 6to4 (2002::/16) address',
  teredo: 'a Teredo (2001::/32) address',
  deprecatedSiteLocal: 'a site-local address',
  benchmarking: 'a benchmarking address',
  discard: 'a discard-only address',
}

/** An IP literal in any notation the OS resolver accepts (127.1, 2130706433, 0x7f000001, [::1]), or null. */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  if (ipaddr.IPv4.isValid(bare)) return ipaddr.IPv4.parse(bare)
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare)
  return null
}

/** What kind of special address this is ("a loopback address"), or null for public unicast. */
export function addressRisk(address: string): string | null {
  const ip = parseIpLiteral(address)
  if (!ip) return 'not an IP address'
  if (ip.kind() === 'ipv6') {
    const parts = (ip as ipaddr.IPv6).parts
    // ::a.b.c.d (IPv4-compatible, deprecated) reaches IPv4 hosts; ipaddr.js calls it unicast.
    if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1)) {
      return 'an IPv4-compatible IPv6 address'
    }
  }
  const range = ip.range()
  if (range === 'unicast') return null
  return RANGE_REASONS[range] ?? `a special-purpose address (${range})`
}

/** Why a webhook may not connect to this address, or null for public unicast. */
export function blockedReason(address: string): string | null {
  const risk = addressRisk(address)
  return risk ? `${address} is ${risk}` : null
}

/** The host exactly as written in the URL (before WHATWG normalisation turns 127.1 into 127.0.0.1). */
function hostAsWritten(raw: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(raw.trim())
  return (match?.[1] ?? '').toLowerCase()
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost'])

function isLoopbackException(host: string, allowLoopback: boolean): boolean {
  return allowLoopback && LOOPBACK_HOSTS.has(host)
}

function refuse(detail: string): AppError {
  return new AppError('parameter_invalid', detail, { param: 'url' })
}

/**
 * Checks a URL at registration: https only (http to exactly 127.0.0.1 or localhost when
 * the deployment allows loopback), no credentials, no literal special address.
 * Returns the normalised URL; names are resolved and checked separately.
 */
export function checkWebhookUrl(
  raw: string,
  allowLoopback: boolean,
): { url: URL; isLiteral: boolean; loopback: boolean } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw refuse('url must be an absolute URL such as https://example.com/webhooks')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('url must use https')
  if (url.username || url.password)
    throw refuse('url must not carry credentials; authenticate deliveries by their signature')
  const written = hostAsWritten(raw)
  const loopback = isLoopbackException(written, allowLoopback) && isLoopbackException(url.hostname, allowLoopback)
  if (loopback) return { url, isLiteral: url.hostname !== 'localhost', loopback }
  if (url.protocol !== 'https:') {
    throw refuse(
      allowLoopback ? 'url must use https (plain http only to 127.0.0.1 or localhost)' : 'url must use https',
    )
  }
  const literal = parseIpLiteral(written) ?? parseIpLiteral(url.hostname)
  if (literal) {
    const risk = addressRisk(literal.toString())
    if (risk) throw refuse(`url points at a refused address: ${written} is ${risk}`)
    return { url, isLiteral: true, loopback: false }
  }
  if (url.hostname === 'localhost' || url.hostname.endsWith('.localhost')) {
    throw refuse('url points at a refused address: localhost is a loopback name')
  }
  return { url, isLiteral: false, loopback: false }
}

export type Target =
  | { kind: 'ok'; address: string; family: 4 | 6 }
  | { kind: 'blocked'; reason: string }
  | { kind: 'unresolved'; reason: string }

/** Resolves and checks the host at delivery time; the connection must then go to exactly `address`. */
export async function resolveTarget(
  url: URL,
  options: { allowLoopback: boolean; lookup: HostLookup },
): Promise<Target> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = parseIpLiteral(host)
  if (literal) {
    const address = literal.toString()
    if (isLoopbackException(url.hostname, options.allowLoopback) && address === '127.0.0.1')
      return { kind: 'ok', address, family: 4 }
    const reason = blockedReason(address)
    if (reason) return { kind: 'blocked', reason }
    return { kind: 'ok', address, family: literal.kind() === 'ipv6' ? 6 : 4 }
  }
  let addresses: ResolvedAddress[]
  try {
    addresses = await options.lookup(host)
  } catch (error) {
    return {
      kind: 'unresolved',
      reason: `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    }
  }
  if (addresses.length === 0) return { kind: 'unresolved', reason: `${host} has no addresses` }
  if (isLoopbackException(host, options.allowLoopback)) {
    // Only 127.0.0.1 itself: localhost's ::1 and every other loopback address stay refused.
    if (addresses.some((entry) => entry.address === '127.0.0.1')) return { kind: 'ok', address: '127.0.0.1', family: 4 }
    return { kind: 'blocked', reason: `${host} does not resolve to 127.0.0.1` }
  }
  // Every address must pass: a name that mixes public and internal addresses is refused.
  for (const entry of addresses) {
    const risk = addressRisk(entry.address)
    if (risk) return { kind: 'blocked', reason: `${host} resolves to ${entry.address}, ${risk}` }
  }
  const first = addresses[0]!
  return { kind: 'ok', address: first.address, family: first.family }
}
