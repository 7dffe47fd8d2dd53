import { useRef } from 'react'

function randomKey(): string {
  // getRandomValues works outside secure contexts too (randomUUID does not).
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * An Idempotency-Key per request body: sending the same body again (a double click, a retry after
 * a lost answer) reuses the key, so one record is created, not two; a changed body gets a new key.
 */
export function useIdempotencyKey(): (body: unknown) => string {
  const last = useRef<{ body: string; key: string } | null>(null)
  return (body) => {
    const text = JSON.stringify(body)
    if (last.current?.body !== text) last.current = { body: text, key: randomKey() }
    return last.current.key
  }
}
