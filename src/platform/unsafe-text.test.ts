import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findUnsafeText, isUnsafeText } from './unsafe-text.js'

/** Code units biased towards the ones that matter: NUL, both halves of a pair, whole pairs. */
const codeUnit = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', 'a', 'é'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
)
const text = fc.array(codeUnit, { maxLength: 8 }).map((units) => units.join(''))

/** The reference: encodeURIComponent refuses exactly the unpaired surrogates. */
function unsafeByReference(value: string): boolean {
  if (value.includes('\u0000')) return true
  try {
    encodeURIComponent(value)
    return false
  } catch {
    return true
  }
}

const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text, tie('value'), { maxKeys: 3 }),
  ),
})).value

/** Every string and key of a value, with the param path the finder would name it by. */
function strings(value: unknown, path: string[] = []): { path: string[]; text: string; key: boolean }[] {
  if (typeof value === 'string') return [{ path, text: value, key: false }]
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, [...path, String(index)]))
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      { path: [...path, key], text: key, key: true },
      ...strings(item, [...path, key]),
    ])
  }
  return []
}

describe('unsafe text', () => {
  it('is exactly a NUL or an unpaired surrogate', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(isUnsafeText(value)).toBe(unsafeByReference(value))
      }),
      {
        numRuns: 2000,
      },
    )
  })

  it('is found in any JSON value, keys included, or reported absent', () => {
    fc.assert(
      fc.property(json, (value) => {
        const bad = strings(value).filter((entry) => unsafeByReference(entry.text))
        const found = findUnsafeText(value)
        if (bad.length === 0) {
          expect(found).toBeNull()
          return
        }
        // The param names an offending string or key (a key's bad characters written as \uXXXX).
        const printed = bad.map((entry) =>
          (entry.key
            ? [
                ...entry.path.slice(0, -1),
                entry.text.replace(
                  // eslint-disable-next-line no-control-regex -- finding NUL is the point
                  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
                  (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
                ),
              ]
            : entry.path
          ).join('.'),
        )
        expect(printed.map((param) => param || '(body)')).toContain(found)
      }),
      { numRuns: 1000 },
    )
  })

  it('walks a value nested deeper than the call stack', () => {
    let deep: unknown = ['\u0000']
    for (let depth = 0; depth < 200_000; depth += 1) deep = [deep]
    expect(findUnsafeText(deep)).toMatch(/^(0\.){200000}0$/)
  })
})
