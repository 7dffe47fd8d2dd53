import { isDeepStrictEqual } from 'node:util'
import type { TSchema } from 'typebox'

/**
 * Marks a schema as a named OpenAPI component. The validator ignores the mark; the document
 * generator replaces every copy of the schema with a `$ref` to `#/components/schemas/<name>`.
 */
const COMPONENT = 'x-oeuvre-component'

export function component<T extends TSchema>(name: string, schema: T): T {
  return Object.assign(schema, { [COMPONENT]: name })
}

export function componentName(schema: TSchema): string | undefined {
  const name = (schema as Record<string, unknown>)[COMPONENT]
  return typeof name === 'string' ? name : undefined
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

// Annotations the generator moves between a schema and its media object: not part of a component's identity.
const MOVABLE = ['example', 'examples']

function withoutMovable(schema: Json): Json {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !MOVABLE.includes(key)))
}

const hasExamples = (schema: Json) => MOVABLE.some((key) => schema[key] !== undefined)

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const SCHEMA = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']
const SCHEMA_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems']
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs']

/**
 * Replaces each marked schema below `schema` (and `schema` itself) with a `$ref`, collecting
 * the marked schemas into `components`. Two different schemas under one name are a mistake.
 */
export function hoistSchema(schema: unknown, components: Record<string, Json>): unknown {
  if (!isObject(schema)) return schema
  const copy: Json = { ...schema }
  for (const key of SCHEMA) if (key in copy) copy[key] = hoistSchema(copy[key], components)
  for (const key of SCHEMA_LIST) {
    const list = copy[key]
    if (Array.isArray(list)) copy[key] = list.map((member) => hoistSchema(member, components))
  }
  for (const key of SCHEMA_MAP) {
    const map = copy[key]
    if (isObject(map))
      copy[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, hoistSchema(value, components)]))
  }
  const name = copy[COMPONENT]
  if (typeof name !== 'string') return copy
  delete copy[COMPONENT]
  const known = components[name]
  if (known === undefined) components[name] = copy
  else if (!isDeepStrictEqual(withoutMovable(known), withoutMovable(copy)))
    throw new Error(`two different schemas are named ${name}: name one of them differently`)
  else if (!hasExamples(known) && hasExamples(copy)) components[name] = copy
  return { $ref: `#/components/schemas/${name}` }
}

/** Adds OpenAPI examples to a schema (the validator ignores them). */
export function withExamples<T extends TSchema>(schema: T, examples: unknown[]): T {
  return { ...schema, examples } as T
}
