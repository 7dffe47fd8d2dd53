/** Web Crypto as the platform provides it (browsers, Node 19+, Deno, Bun, Workers). */
export type WebCrypto = typeof globalThis.crypto

/** The given Web Crypto, else the platform's; Node 18 has it only as `webcrypto` from `node:crypto`. */
export function webCrypto(given?: WebCrypto): WebCrypto {
  const found = given ?? (globalThis as { crypto?: WebCrypto }).crypto
  if (!found?.subtle)
    throw new Error(
      'Web Crypto is not available: on Node 18 pass `crypto: (await import("node:crypto")).webcrypto` in the options',
    )
  return found
}

export async function sha256(bytes: Uint8Array<ArrayBuffer>, crypto?: WebCrypto): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await webCrypto(crypto).subtle.digest('SHA-256', bytes))
}

/** A random idempotency key: a UUID v4 from the platform's generator, or Math.random's where there is none. */
export function randomKey(): string {
  const crypto = (globalThis as { crypto?: Partial<WebCrypto> }).crypto
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID()
  const bytes = new Uint8Array(16)
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(bytes)
  else for (let i = 0; i < 16; i += 1) bytes[i] = Math.floor(Math.random() * 256)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
