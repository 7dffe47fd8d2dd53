/**
 * RFC 8785 (JSON Canonicalization Scheme) text of JSON data as `JSON.parse` gives it: members
 * sorted by UTF-16 code units, no whitespace, strings and numbers as ECMAScript writes them.
 * Throws on what JSON cannot hold (non-finite numbers, bigint, functions).
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('a non-finite number has no JSON text')
      return String(value)
    case 'object':
      break
    default:
      throw new TypeError(`a ${typeof value} has no JSON text`)
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  const record = value as Record<string, unknown>
  const members: string[] = []
  // Array#sort without a comparator orders strings by UTF-16 code units, as RFC 8785 asks.
  for (const key of Object.keys(record).sort()) {
    const member = record[key]
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`)
  }
  return `{${members.join(',')}}`
}
