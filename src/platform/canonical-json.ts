import canonicalizeModule from 'canonicalize'

type Canonicalize = (input: unknown) => string | undefined

// `canonicalize` is CommonJS; under NodeNext its function may arrive as `.default`.
const canonicalizeFn: Canonicalize =
  (canonicalizeModule as unknown as { default?: Canonicalize }).default ?? (canonicalizeModule as unknown as Canonicalize)

/** RFC 8785 (JSON Canonicalization Scheme) text of a JSON value. */
export function canonicalJson(value: unknown): string {
  const text = canonicalizeFn(value)
  if (text === undefined) throw new Error('value cannot be canonicalised as JSON')
  return text
}
