import type { CompiledQuery } from 'kysely'

/**
 * Statements as simple-protocol text: several travel in one message (the tenant scope with a
 * transaction's first statement, a batch, the writes with COMMIT), which takes literals, not
 * parameters. A parameter becomes the untyped literal PostgreSQL resolves by context, exactly
 * as it resolves an extended-protocol parameter.
 */

const ORG_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/

export function quoteLiteral(value: string): string {
  // standard_conforming_strings is on (checked at start), so only quotes need doubling.
  if (value.includes('\0')) throw new Error('NUL byte in SQL literal')
  return `'${value.replaceAll("'", "''")}'`
}

const ARRAY_ELEMENT_SPECIAL = /[\\"]/g
const NEEDS_ESCAPE = /["\\]/

/**
 * A PostgreSQL array literal: `{"a","b",NULL}`. Plain strings are joined in one go (pg would
 * concatenate element by element: a few kilobytes of garbage per line of a large batch).
 */
export function arrayLiteral(items: readonly unknown[]): string {
  if (items.length === 0) return '{}'
  if (items.every((item) => typeof item === 'string' && !NEEDS_ESCAPE.test(item))) return `{"${items.join('","')}"}`
  const parts = items.map((item) => {
    if (item === null || item === undefined) return 'NULL'
    if (Array.isArray(item)) throw new Error('nested arrays are not supported in inline parameters')
    // One pass over the element (backslash and quote each get a backslash); big arrays carry whole documents.
    return `"${String(item).replace(ARRAY_ELEMENT_SPECIAL, '\\$&')}"`
  })
  return `{${parts.join(',')}}`
}

/** A parameter as an untyped literal, resolved by context exactly as an extended-protocol parameter is. */
export function inlineParameter(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' || typeof value === 'bigint') return quoteLiteral(String(value))
  if (typeof value === 'string') return quoteLiteral(value)
  if (value instanceof Date) return quoteLiteral(value.toISOString())
  if (value instanceof Uint8Array) return quoteLiteral(`\\x${Buffer.from(value).toString('hex')}`)
  if (Array.isArray(value)) return quoteLiteral(arrayLiteral(value))
  return quoteLiteral(JSON.stringify(value))
}

/** The statement that puts a transaction in an org's tenant scope (RLS), for that transaction only. */
export function setOrgStatement(orgId: string): string {
  if (!ORG_ID.test(orgId)) throw new Error('invalid org id for tenant scope')
  return `select set_config('app.org_id', ${quoteLiteral(orgId)}, true)`
}

/** A statement whose parameters can be inlined: no string literal in its text, so `$n` is always a placeholder. */
export function inlinable(sql: string): boolean {
  return !sql.includes("'")
}

/** A statement to send in a simple-protocol message: only one without string literals can be. */
export function checkedInlinable(query: CompiledQuery): CompiledQuery {
  if (!inlinable(query.sql))
    throw new Error(
      'a statement with a string literal cannot be batched or sent at commit; pass the value as a parameter',
    )
  return query
}

/** The statement with each `$n` replaced by its parameter's literal (the text holds no string literal, so every `$n` is a placeholder). */
export function inlineStatement(sql: string, parameters: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => inlineParameter(parameters[Number(index) - 1]))
}
