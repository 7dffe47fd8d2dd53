import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, canonicalJsonOfJson, jsonString, referenceCanonicalJson } from './canonical-json.js'

/** Either the text, or the error message: the fast path must also fail where the reference fails. */
function outcome(canonicalise: (value: unknown) => string, value: unknown): string {
  try {
    return `ok ${canonicalise(value)}`
  } catch (error) {
    return `error ${error instanceof Error ? error.message : String(error)}`
  }
}

/** Strings of any code points, lone surrogates and control characters included. */
const anyString = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom('\ud800', '\udfff', '\u0000', '\u001f', '\u2028', '"', '\\'),
  ),
})
/** Numbers of every kind: integers, fractions, tiny and huge exponents, -0, the edges of doubles. */
const anyNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(
    0,
    -0,
    1e21,
    1e-7,
    5e-324,
    Number.MAX_VALUE,
    Number.MAX_SAFE_INTEGER,
    Number('333333333.33333329'),
    4.5,
    0.000001,
    1e300,
  ),
)
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyString,
    anyNumber,
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(
    fc.oneof(anyString, fc.constantFrom('a', 'b', '1', '10', '__proto__', 'toJSON', '\u20ac', '\ufb33')),
    tie('value'),
    { maxKeys: 6 },
  ),
})).value

describe('canonicalJson (RFC 8785)', () => {
  it('writes exactly the reference package’s bytes for arbitrary JSON data', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value))
      }),
      { numRuns: 2000 },
    )
  })

  it('writes exactly the reference’s bytes for data read back through JSON.parse (what the verifier hashes)', () => {
    fc.assert(
      fc.property(json, (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value))
        expect(canonicalJson(parsed)).toBe(referenceCanonicalJson(parsed))
      }),
      { numRuns: 1000 },
    )
  })

  it('behaves as the reference for values that are not plain JSON (toJSON, undefined, NaN, Infinity, bigint, classes)', () => {
    const odd = fc.oneof(
      fc.constantFrom(
        Number.NaN,
        Infinity,
        -Infinity,
        undefined,
        new Date(0),
        [1, undefined, 2],
        { a: undefined, b: 1 },
        { toJSON: () => ({ z: 1, a: 2 }) },
        new Map(),
        10n,
      ),
      fc.anything({
        withBigInt: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withTypedArray: true,
        withSparseArray: true,
        withBoxedValues: true,
        withNullPrototype: true,
      }),
    )
    fc.assert(
      fc.property(odd, (value) => {
        expect(outcome(canonicalJson, value)).toBe(outcome(referenceCanonicalJson, value))
      }),
      { numRuns: 1000 },
    )
  })

  it('orders members by UTF-16 code units and prints numbers as ECMAScript does (RFC 8785 examples)', () => {
    const keys = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    }
    expect(canonicalJson(keys)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    )
    expect(
      canonicalJson({ numbers: [Number('333333333.33333329'), 1e30, 4.5, 2e-3, 0.000000000000000000000000001, -0] }),
    ).toBe('{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27,0]}')
    expect(canonicalJson({ b: [true, null, 'x\n'], a: { d: 1, c: 2 } })).toBe(
      '{"a":{"c":2,"d":1},"b":[true,null,"x\\n"]}',
    )
  })
})

describe('canonicalJsonOfJson (the data as JSON gives it back)', () => {
  /** The round trip it stands for. */
  const roundTrip = (value: unknown): string => {
    const text = JSON.stringify(value) as string | undefined
    if (text === undefined) throw new Error('value cannot be written as JSON')
    return canonicalJson(JSON.parse(text))
  }

  it('is the round trip’s text for JSON data, with -0, members JSON cannot hold and null prototypes', () => {
    const withHoles = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        json,
        fc.constantFrom(-0, undefined, Symbol('s')),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(
        tie('value').filter((item) => item !== undefined && typeof item !== 'symbol'),
        { maxLength: 4 },
      ),
      object: fc.dictionary(fc.constantFrom('a', 'b', '1', '\u20ac'), tie('value'), { maxKeys: 4 }),
    })).value
    fc.assert(
      fc.property(withHoles, (value) => {
        expect(outcome(canonicalJsonOfJson, value)).toBe(outcome(roundTrip, value))
      }),
      { numRuns: 2000 },
    )
    expect(
      canonicalJsonOfJson({
        b: -0,
        a: undefined,
        c: Object.assign(Object.create(null) as object, { y: 1, x: [0, -0] }),
      }),
    ).toBe('{"b":0,"c":{"x":[0,0],"y":1}}')
  })

  it('is the round trip’s text for values that are not plain JSON (toJSON, dates, undefined in arrays, classes)', () => {
    const odd = fc.oneof(
      fc.constantFrom(
        new Date(0),
        [1, undefined, 2],
        { toJSON: () => ({ z: 1, a: 2 }) },
        { when: new Date(1), list: [undefined] },
        new Map(),
        Number.NaN,
        () => 1,
      ),
      fc.anything({
        withDate: true,
        withMap: true,
        withSet: true,
        withTypedArray: true,
        withSparseArray: true,
        withBoxedValues: true,
        withNullPrototype: true,
      }),
    )
    fc.assert(
      fc.property(odd, (value) => {
        expect(outcome(canonicalJsonOfJson, value)).toBe(outcome(roundTrip, value))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('jsonString', () => {
  it('writes every string exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, fc.string({ unit: 'binary-ascii' })), (value) => {
        expect(jsonString(value)).toBe(JSON.stringify(value))
      }),
      { numRuns: 3000 },
    )
    for (const value of ['', 'plain', 'a"b', 'a\\b', '\u007f', '\u0000', '\u001f', ' ~', '\u00e9', '\ud800'])
      expect(jsonString(value)).toBe(JSON.stringify(value))
  })
})
