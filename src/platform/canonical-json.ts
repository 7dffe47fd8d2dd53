import canonicalizeModule from 'canonicalize'

type Canonicalize = (input: unknown) => string | undefined

// `canonicalize` is CommonJS; under NodeNext its function may arrive as `.default`.
const canonicalizeFn: Canonicalize =
  (canonicalizeModule as unknown as { default?: Canonicalize }).default ??
  (canonicalizeModule as unknown as Canonicalize)

/** The `canonicalize` package's RFC 8785 text: the reference every faster path must equal byte for byte. */
export function referenceCanonicalJson(value: unknown): string {
  const text = canonicalizeFn(value)
  if (text === undefined) throw new Error('value cannot be canonicalised as JSON')
  return text
}

/** Printable ASCII other than `"` and `\\`: JSON.stringify writes such a string as it is, between quotes. */
const VERBATIM = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

/** A JSON string literal, exactly as JSON.stringify writes it (RFC 8785 3.2.2.2), without its call for the common case. */
export function jsonString(value: string): string {
  return VERBATIM.test(value) ? `"${value}"` : JSON.stringify(value)
}

/** Returned by `plain` when a value is not plain JSON data: the reference then decides. */
const NOT_PLAIN = Symbol('not plain JSON')

/** Keys in UTF-16 code unit order (RFC 8785 3.2.3), as `Array#sort` without a comparator orders strings. */
function sortedKeys(object: object): string[] {
  const keys = Object.keys(object)
  // Insertion sort: objects have a handful of keys, and this beats the generic sort's overhead.
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!
    let j = i - 1
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!
      j -= 1
    }
    keys[j + 1] = key
  }
  return keys
}

/**
 * RFC 8785 text of plain JSON data (what JSON.parse gives: strings, finite numbers, booleans,
 * null, dense arrays, plain objects), or NOT_PLAIN for anything whose treatment the reference
 * defines on its own (toJSON, undefined in arrays, non-finite numbers, bigint, class instances).
 */
function plain(value: unknown): string | typeof NOT_PLAIN {
  switch (typeof value) {
    case 'string':
      return jsonString(value)
    case 'number':
      // ECMAScript Number::toString, which is what RFC 8785 prescribes (and JSON.stringify prints).
      return Number.isFinite(value) ? String(value) : NOT_PLAIN
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      break
    default:
      return NOT_PLAIN
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN
    let text = '['
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i]
      if (item === undefined) return NOT_PLAIN
      const part = plain(item)
      if (part === NOT_PLAIN) return NOT_PLAIN
      text += i === 0 ? part : `,${part}`
    }
    return `${text}]`
  }
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  const record = value as Record<string, unknown>
  if (typeof record.toJSON === 'function') return NOT_PLAIN
  let text = '{'
  let first = true
  for (const key of sortedKeys(record)) {
    const member = record[key]
    // The reference leaves out members whose value JSON cannot hold.
    if (member === undefined || typeof member === 'symbol') continue
    const part = plain(member)
    if (part === NOT_PLAIN) return NOT_PLAIN
    text += `${first ? '' : ','}${jsonString(key)}:${part}`
    first = false
  }
  return `${text}}`
}

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a JSON value. Plain JSON data is written
 * directly (several times faster than the package); anything else goes to the `canonicalize`
 * package, so the output is the package's for every input (a property test holds them equal).
 */
export function canonicalJson(value: unknown): string {
  const text = plain(value)
  return text === NOT_PLAIN ? referenceCanonicalJson(value) : text
}

/**
 * The RFC 8785 text of `value` as JSON gives it back (`JSON.parse(JSON.stringify(value))`):
 * for plain JSON data, its own text, written without the round trip (members JSON cannot
 * hold are left out by both, and -0 is written 0 by both); anything else makes the round
 * trip first. A property test holds it to the round trip for any value.
 */
export function canonicalJsonOfJson(value: unknown): string {
  const text = plain(value)
  if (text !== NOT_PLAIN) return text
  const json = JSON.stringify(value) as string | undefined
  if (json === undefined) throw new Error('value cannot be written as JSON')
  return canonicalJson(JSON.parse(json))
}
