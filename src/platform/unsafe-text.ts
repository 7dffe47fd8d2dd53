import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from './errors.js'

// PostgreSQL refuses U+0000 in text and an unpaired surrogate in json; neither has a use in our input.
/* eslint-disable no-control-regex -- finding NUL is the point */
const SUSPECT = /[\u0000\ud800-\udfff]/
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** True when a string holds a NUL character or a surrogate that is not half of a pair. */
export function isUnsafeText(text: string): boolean {
  return SUSPECT.test(text) && UNSAFE.test(text)
}

const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, 'g')
/* eslint-enable no-control-regex */

/** A key as a param name can show it: the offending characters as \uXXXX escapes. */
const printable = (key: string) =>
  key.replace(UNSAFE_GLOBAL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)

const join = (path: string | undefined, key: string) => (path === undefined ? key : `${path}.${key}`)

/** Whether any string or key in a parsed value holds unsafe text: the check every request pays, so it allocates no paths. */
function containsUnsafeText(value: unknown): boolean {
  const stack = [value]
  for (let current = stack.pop(); stack.length > 0 || current !== undefined; current = stack.pop()) {
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return true
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item)
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (isUnsafeText(key)) return true
        stack.push((current as Record<string, unknown>)[key])
      }
    }
  }
  return false
}

/**
 * The param (dotted path, as validation errors name them) of the first string or key in a
 * parsed value that holds unsafe text, or null. Iterative: a 1 MiB body can nest deeper
 * than the call stack.
 */
export function findUnsafeText(value: unknown, root?: string): string | null {
  if (!containsUnsafeText(value)) return null
  const stack: { value: unknown; path: string | undefined }[] = [{ value, path: root }]
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const current = item.value
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return item.path || '(body)'
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1)
        stack.push({ value: current[index], path: join(item.path, String(index)) })
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current)
      for (const key of keys) if (isUnsafeText(key)) return join(item.path, printable(key))
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string
        stack.push({ value: (current as Record<string, unknown>)[key], path: join(item.path, key) })
      }
    }
  }
  return null
}

/** Header names as people write them: Idempotency-Key. */
const headerParam = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())

/** The first path parameter, query parameter, header or body field of a request that holds unsafe text. */
export function unsafeRequestParam(request: FastifyRequest): string | null {
  return (
    findUnsafeText(request.params) ??
    findUnsafeText(request.query) ??
    headerWithUnsafeText(request) ??
    findUnsafeText(request.body)
  )
}

function headerWithUnsafeText(request: FastifyRequest): string | null {
  const headers = request.headers
  for (const name of Object.keys(headers)) {
    const value = headers[name]
    if (typeof value === 'string' ? isUnsafeText(value) : Array.isArray(value) && value.some(isUnsafeText))
      return headerParam(name)
  }
  return null
}

export function unsafeTextError(param: string): AppError {
  const message = `${param} must not contain a NUL character (U+0000) or an unpaired surrogate`
  return new AppError('parameter_invalid', message, { param, errors: [{ param, code: 'invalid_format', message }] })
}

/**
 * Every request's strings are checked in one place, once parsed and before validation, so
 * no handler, validator or statement ever sees them: after authentication and rate limiting
 * (which only hash or compare what they read), before anything else.
 */
export function registerUnsafeTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, reply, done) => {
    const param = unsafeRequestParam(request)
    done(param === null ? undefined : unsafeTextError(param))
  })
}
