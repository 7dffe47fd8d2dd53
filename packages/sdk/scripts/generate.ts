import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import { format, resolveConfig } from 'prettier'

/**
 * `npm run sdk:generate`: the SDK's types and method table from the checked-in openapi.json.
 * Only the partner surface is kept (every /v1 operation and the token endpoint, with the
 * components they refer to); each /v1 operation becomes `oeuvre.<x-oeuvre-resource>.<x-oeuvre-method>`.
 * `test/generated.test.ts` regenerates in memory and fails while the files differ.
 */

export const DOCUMENT_FILE = new URL('../../../openapi.json', import.meta.url)
export const GENERATED_DIR = new URL('../src/generated/', import.meta.url)

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
}

interface Operation {
  operationId: string
  summary?: string
  parameters?: (Parameter | { $ref: string })[]
  requestBody?: { required?: boolean; content?: Record<string, unknown> }
  responses: Record<string, unknown>
  security?: Record<string, string[]>[]
  'x-oeuvre-resource'?: string
  'x-oeuvre-method'?: string
}

interface Document {
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>
  components: Record<string, Record<string, unknown>>
  [key: string]: unknown
}

/** One SDK method: what the runtime needs to send it. */
export interface MethodSpec {
  resource: string
  method: string
  operationId: string
  summary: string
  httpMethod: string
  path: string
  pathParams: string[]
  input: 'query' | 'body' | 'none'
  inputRequired: boolean
  paginated: boolean
  auth: boolean
  scope: string | null
  emptyResponse: boolean
}

export interface GeneratedFile {
  name: string
  text: string
}

const isPartnerPath = (path: string) => path.startsWith('/v1/') || path === '/oauth/token'

function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found)
  else if (value && typeof value === 'object')
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') found.add(member)
      else refsIn(member, found)
    }
}

function resolve(document: Document, ref: string): unknown {
  const parts = ref.replace(/^#\//, '').split('/')
  let node: unknown = document
  for (const part of parts) node = (node as Record<string, unknown>)[part]
  if (node === undefined) throw new Error(`unresolved $ref ${ref}`)
  return node
}

/** The partner surface alone: its paths, and only the components they reach. */
export function partnerDocument(document: Document): Document {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => isPartnerPath(path)))
  const reached = new Set<string>()
  const pending: string[] = []
  const visit = (value: unknown) => {
    const found = new Set<string>()
    refsIn(value, found)
    for (const ref of found)
      if (!reached.has(ref)) {
        reached.add(ref)
        pending.push(ref)
      }
  }
  visit(paths)
  while (pending.length > 0) visit(resolve(document, pending.pop()!))
  const components: Document['components'] = {}
  for (const [kind, entries] of Object.entries(document.components)) {
    const kept =
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(Object.entries(entries).filter(([name]) => reached.has(`#/components/${kind}/${name}`)))
    if (Object.keys(kept).length > 0) components[kind] = kept
  }
  return { ...document, paths, components }
}

/** `value`, or what its `$ref` (and theirs) point at. */
function schemaOf<T = Record<string, unknown>>(document: Document, value: unknown): T {
  let node = value as Record<string, unknown>
  while (node && typeof node.$ref === 'string') node = resolve(document, node.$ref) as Record<string, unknown>
  return (node ?? {}) as T
}

/** The SDK methods, in the document's order. */
export function methodSpecs(document: Document): MethodSpec[] {
  const specs: MethodSpec[] = []
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/')) continue
    for (const httpMethod of HTTP_METHODS) {
      const operation = item[httpMethod]
      if (!operation) continue
      const resource = operation['x-oeuvre-resource']
      const method = operation['x-oeuvre-method']
      if (!resource || !method) throw new Error(`${httpMethod} ${path}: no x-oeuvre-resource / x-oeuvre-method`)
      const parameters = (operation.parameters ?? []).map((parameter) => schemaOf<Parameter>(document, parameter))
      const query = parameters.filter((parameter) => parameter.in === 'query')
      const hasBody = Boolean(operation.requestBody?.content?.['application/json'])
      if (hasBody && query.length > 0) throw new Error(`${operation.operationId}: a body and a query string at once`)
      const success = Object.keys(operation.responses).find((status) => /^2\d\d$/.test(status))
      if (!success) throw new Error(`${operation.operationId}: no success response`)
      const response = schemaOf<{ content?: Record<string, unknown> }>(document, operation.responses[success])
      // A server-sent event stream is not a request and an answer: no generated method reads one.
      if (response.content?.['text/event-stream']) continue
      const body = response.content?.['application/json'] as { schema?: unknown } | undefined
      const properties = (body ? schemaOf(document, body.schema).properties : undefined) as
        Record<string, unknown> | undefined
      const security = operation.security ?? []
      specs.push({
        resource,
        method,
        operationId: operation.operationId,
        summary: operation.summary ?? '',
        httpMethod: httpMethod.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
        input: hasBody ? 'body' : query.length > 0 ? 'query' : 'none',
        inputRequired: hasBody ? Boolean(operation.requestBody?.required) : query.some((p) => p.required),
        paginated: Boolean(properties?.data && properties.pagination) && query.some((p) => p.name === 'cursor'),
        auth: security.length > 0,
        scope: security.flatMap((requirement) => Object.values(requirement).flat())[0] ?? null,
        emptyResponse: !body,
      })
    }
  }
  const seen = new Set<string>()
  for (const spec of specs) {
    const key = `${spec.resource}.${spec.method}`
    if (seen.has(key)) throw new Error(`two operations are ${key}`)
    seen.add(key)
  }
  return specs
}

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1)
const quote = (text: string) => JSON.stringify(text)

function signature(spec: MethodSpec): string {
  const id = quote(spec.operationId)
  const params = spec.pathParams.map((name) => `${name}: string`)
  if (spec.input === 'query') params.push(`query${spec.inputRequired ? '' : '?'}: QueryOf<${id}>`)
  if (spec.input === 'body') params.push(`body${spec.inputRequired ? '' : '?'}: BodyOf<${id}>`)
  params.push('options?: RequestOptions')
  const result = spec.paginated
    ? `PagePromise<ListItemOf<${id}>>`
    : spec.emptyResponse
      ? 'Promise<void>'
      : `Promise<ResultOf<${id}>>`
  const doc = `/** ${spec.summary}: \`${spec.httpMethod} ${spec.path}\`${spec.scope ? ` (${spec.scope})` : ''} */`
  return `${doc}\n${spec.method}(${params.join(', ')}): ${result}`
}

export function resourcesSource(document: Document, specs: MethodSpec[]): string {
  const resources = new Map<string, MethodSpec[]>()
  for (const spec of specs) resources.set(spec.resource, [...(resources.get(spec.resource) ?? []), spec])
  const table = [...resources]
    .map(([resource, methods]) => {
      const entries = methods.map((spec) => {
        const runtime = {
          httpMethod: spec.httpMethod,
          path: spec.path,
          pathParams: spec.pathParams,
          input: spec.input,
          paginated: spec.paginated,
          auth: spec.auth,
        }
        return `${spec.method}: ${JSON.stringify(runtime)},`
      })
      return `${resource}: {\n${entries.join('\n')}\n},`
    })
    .join('\n')
  const interfaces = [...resources]
    .map(
      ([resource, methods]) =>
        `/** \`oeuvre.${resource}\` */\nexport interface ${pascal(resource)}Methods {\n${methods.map(signature).join('\n')}\n}`,
    )
    .join('\n\n')
  const fields = [...resources].map(([resource]) => `readonly ${resource}: ${pascal(resource)}Methods`).join('\n')
  const assignments = [...resources]
    .map(([resource]) => `this.${resource} = bindMethods<${pascal(resource)}Methods>(send, OPERATIONS.${resource})`)
    .join('\n')
  const records = Object.keys(document.components.schemas ?? {})
    .map((name) => `export type ${name} = components['schemas'][${quote(name)}]`)
    .join('\n')
  return `${HEADER}
import type { components } from './openapi.js'
import type { PagePromise } from '../pagination.js'
import { bindMethods, type OperationTable, type Send } from '../methods.js'
import type { BodyOf, ListItemOf, QueryOf, RequestOptions, ResultOf } from '../types.js'

/** Every /v1 operation as \`oeuvre.<resource>.<method>\`: what the runtime sends for each. */
export const OPERATIONS = {
${table}
} as const satisfies Record<string, OperationTable>

${interfaces}

/** The resources of the client, one per \`x-oeuvre-resource\` of the document. */
export abstract class OeuvreResources {
${fields}

protected constructor(send: Send) {
${assignments}
}
}

${records}
`
}

const HEADER = '// Generated by `npm run sdk:generate` from openapi.json. Do not edit.'

/** Every generated file, formatted as Prettier would leave it. */
export async function generateSdkSources(documentText: string): Promise<GeneratedFile[]> {
  const document = partnerDocument(JSON.parse(documentText) as Document)
  const specs = methodSpecs(document)
  const types = astToString(await openapiTS(structuredClone(document) as never, { silent: true }))
  const prettier = { ...(await resolveConfig(fileURLToPath(DOCUMENT_FILE))), parser: 'typescript' }
  return [
    { name: 'openapi.ts', text: await format(`${HEADER}\n${types}`, prettier) },
    { name: 'resources.ts', text: await format(resourcesSource(document, specs), prettier) },
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await generateSdkSources(await readFile(DOCUMENT_FILE, 'utf8'))
  for (const file of files) {
    await writeFile(new URL(file.name, GENERATED_DIR), file.text)
    console.log(`packages/sdk/src/generated/${file.name}: ${file.text.length} characters`)
  }
}
