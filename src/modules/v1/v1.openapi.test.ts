import { describe, expect, it } from 'vitest'
import { idPattern } from '../../platform/ids.js'
import { addPartnerExamples, exampleFor, fromPattern, type OpenApiDocument } from './v1.openapi.js'

describe('examples derived from schemas', () => {
  it('builds a matching string for simple patterns, and refuses what it cannot build', () => {
    for (const pattern of [
      '^[0-9a-f]{64}$',
      '^[A-Z]{2}[A-Z0-9]{3}\\d{7}$',
      '^(test|live)_[a-z]+$',
      '^T-\\d{3}\\.\\d{3}-\\d$',
      '^[0-9]{9}([0-9]{2})?$',
    ]) {
      const built = fromPattern(pattern)
      expect(built, pattern).not.toBeNull()
      expect(new RegExp(pattern).test(built!), `${pattern} -> ${built}`).toBe(true)
    }
    expect(fromPattern('^[^x]+$')).toBeNull()
    expect(fromPattern('^a|b$')).toBeNull()
  })

  it('keeps written examples, keeps id prefixes, and follows the schema otherwise', () => {
    const document = {}
    expect(exampleFor({ type: 'string', example: 'given' }, document)).toBe('given')
    expect(exampleFor({ type: 'string', pattern: idPattern('cat') }, document)).toMatch(new RegExp(idPattern('cat')))
    expect(
      exampleFor(
        {
          type: 'object',
          properties: {
            amount: { type: 'string', 'x-kind': 'decimal' },
            at: { type: 'string', format: 'date-time' },
            kind: { enum: ['work', 'recording'] },
            count: { type: 'integer', minimum: 5 },
            tags: { type: 'array', items: { type: 'string' } },
            note: { anyOf: [{ type: 'null' }, { type: 'string', format: 'date' }] },
          },
        },
        document,
      ),
    ).toEqual({
      amount: '12.50',
      at: '2026-11-22T10:15:30.123Z',
      kind: 'work',
      count: 5,
      tags: ['string'],
      note: '2026-11-22',
    })
  })

  it('fills only partner-facing operations, and never replaces a written example', () => {
    const media = () => ({
      schema: { type: 'object', properties: { id: { type: 'string', pattern: idPattern('crt') } } },
    })
    const document: OpenApiDocument = addPartnerExamples<OpenApiDocument>({
      paths: {
        '/v1/orgs/{orgId}/creators': { get: { responses: { '200': { content: { 'application/json': media() } } } } },
        '/v1/orgs/{orgId}/events': {
          get: { responses: { '200': { content: { 'application/json': { ...media(), example: { id: 'kept' } } } } } },
        },
        '/api/creators': { get: { responses: { '200': { content: { 'application/json': media() } } } } },
      },
    })
    const example = (path: string) =>
      (document.paths?.[path]?.get?.responses?.['200']?.content?.['application/json'] as { example?: unknown }).example
    expect(example('/v1/orgs/{orgId}/creators')).toEqual({ id: 'crt_01JD2YB6X8Q0W3M5N7P9R1T3V5' })
    expect(example('/v1/orgs/{orgId}/events')).toEqual({ id: 'kept' })
    expect(example('/api/creators')).toBeUndefined()
  })
})
