/** The parts of a JSON Schema an example is derived from. */
interface SchemaNode {
  $ref?: string
  type?: string | string[]
  example?: unknown
  examples?: unknown[]
  const?: unknown
  enum?: unknown[]
  default?: unknown
  format?: string
  pattern?: string
  minimum?: number
  maximum?: number
  anyOf?: SchemaNode[]
  oneOf?: SchemaNode[]
  allOf?: SchemaNode[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  'x-kind'?: string
}

interface Media {
  schema?: SchemaNode
  example?: unknown
  examples?: unknown
}

interface Operation {
  requestBody?: { content?: Record<string, Media> }
  responses?: Record<string, { content?: Record<string, Media> }>
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, SchemaNode> }
}

const ID_BODY = '01JD2YB6X8Q0W3M5N7P9R1T3V5'

function stringExample(schema: SchemaNode): string {
  if (schema['x-kind'] === 'decimal') return '12.50'
  switch (schema.format) {
    case 'date-time':
      return '2026-11-22T10:15:30.123Z'
    case 'date':
      return '2026-11-22'
    case 'email':
      return 'ada@example.com'
    case 'uri':
    case 'url':
      return 'https://partner.example/hooks/oeuvre'
  }
  if (schema.pattern === undefined) return 'string'
  const pattern = schema.pattern
  const matches = (candidate: string) => new RegExp(pattern).test(candidate)
  // Prefixed ids (`^cat_[0-9A-HJKMNP-TV-Z]{26}$`) and secrets (`^whsec_`) keep their prefix.
  const prefix = /^\^([a-z0-9]+[_:])/.exec(pattern)?.[1]
  if (prefix && matches(`${prefix}${ID_BODY}`)) return `${prefix}${ID_BODY}`
  const built = fromPattern(pattern)
  return built !== null && matches(built) ? built : 'string'
}

/** The shortest string of a simple regular expression: literals, classes, groups (first branch), quantifiers. */
export function fromPattern(pattern: string): string | null {
  let source = pattern.replace(/^\^/, '').replace(/\$$/, '')
  let out = ''
  while (source.length > 0) {
    let atom: string
    let rest: string
    const char = source[0]!
    if (char === '\\') {
      const escaped = source[1] ?? ''
      atom = escaped === 'd' ? '1' : escaped === 'w' ? 'a' : escaped === 's' ? ' ' : escaped
      rest = source.slice(2)
    } else if (char === '[') {
      const end = source.indexOf(']', 2)
      if (end < 0 || source[1] === '^') return null
      atom = source[1] === '\\' ? (source[2] ?? '') : source[1]!
      rest = source.slice(end + 1)
    } else if (char === '(') {
      let depth = 0
      let end = -1
      for (let index = 0; index < source.length; index += 1) {
        if (source[index] === '\\') index += 1
        else if (source[index] === '(') depth += 1
        else if (source[index] === ')' && --depth === 0) {
          end = index
          break
        }
      }
      if (end < 0) return null
      const inner = source.slice(1, end).replace(/^\?:/, '')
      const firstBranch = fromPattern(inner.split('|')[0] ?? '')
      if (firstBranch === null) return null
      atom = firstBranch
      rest = source.slice(end + 1)
    } else if ('|)*+?{.'.includes(char)) {
      return null
    } else {
      atom = char
      rest = source.slice(1)
    }
    // Quantifiers: the least repetition that still shows the atom (at least once).
    const quantifier = /^(\{(\d+)(,\d*)?\}|[?*+])/.exec(rest)
    if (quantifier) {
      rest = rest.slice(quantifier[0].length)
      const times = quantifier[2] !== undefined ? Number(quantifier[2]) : 1
      atom = atom.repeat(Math.max(times, quantifier[2] === '0' ? 0 : 1))
    }
    out += atom
    source = rest
  }
  return out
}

/** An example value for a schema: its own example when it has one, otherwise built from its type. */
export function exampleFor(schema: SchemaNode | undefined, document: OpenApiDocument, depth = 0): unknown {
  if (!schema || depth > 10) return null
  if (schema.$ref)
    return exampleFor(document.components?.schemas?.[schema.$ref.split('/').pop() ?? ''], document, depth + 1)
  if (schema.example !== undefined) return schema.example
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (schema.enum && schema.enum.length > 0) return schema.enum[0]
  if (schema.default !== undefined) return schema.default
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) {
    const branch = branches.find((candidate) => candidate.type !== 'null') ?? branches[0]
    return exampleFor(branch, document, depth + 1)
  }
  if (schema.allOf) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleFor(part, document, depth + 1) as object))
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'string')]
  const type = types.find((candidate) => candidate !== 'null') ?? 'null'
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [
          name,
          exampleFor(property, document, depth + 1),
        ]),
      )
    case 'array':
      return [exampleFor(schema.items, document, depth + 1)]
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : Math.min(1, schema.maximum ?? 1)
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return stringExample(schema)
  }
}

function fill(media: Media | undefined, example: () => unknown): void {
  if (!media || media.example !== undefined || media.examples !== undefined) return
  media.example = example()
}

/**
 * Gives every partner-facing operation (the token endpoint and /v1) an example for its
 * request body and each response that has none written by hand, derived from its schema.
 */
export function addPartnerExamples<T extends OpenApiDocument>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/v1') && path !== '/oauth/token') continue
    for (const operation of Object.values(operations)) {
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        fill(media, () => exampleFor(media.schema, document))
      // Error responses are shared components with examples of their own.
      for (const response of Object.values(operation.responses ?? {}))
        for (const media of Object.values(response.content ?? {})) fill(media, () => exampleFor(media.schema, document))
    }
  }
  return document
}
