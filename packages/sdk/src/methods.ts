import { Page, PagePromise, type ListEnvelope } from './pagination.js'
import type { ApiRequest, ApiResponse } from './transport.js'
import type { RequestOptions } from './types.js'

/** How the runtime sends one operation (the generated table holds one per method). */
export interface OperationSpec {
  readonly httpMethod: string
  readonly path: string
  /** The path's parameters in order: the method's first arguments. */
  readonly pathParams: readonly string[]
  /** What the argument after them is. */
  readonly input: 'query' | 'body' | 'none'
  readonly paginated: boolean
  readonly auth: boolean
}

export type OperationTable = Record<string, OperationSpec>

export type Send = <T>(request: ApiRequest) => Promise<ApiResponse<T>>

type Method = (...args: unknown[]) => unknown

/**
 * `{ list, get, ... }` for one resource: each method takes its path parameters, its query or
 * body, then options. `Methods` is the resource's generated interface, made from the same table.
 */
export function bindMethods<Methods>(send: Send, table: OperationTable): Methods {
  return Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, bindMethod(send, spec)])) as Methods
}

function bindMethod(send: Send, spec: OperationSpec): Method {
  return (...args: unknown[]) => {
    const values = args.slice(0, spec.pathParams.length)
    const input = spec.input === 'none' ? undefined : args[spec.pathParams.length]
    const options = args[spec.pathParams.length + (spec.input === 'none' ? 0 : 1)] as RequestOptions | undefined
    let path: string
    try {
      path = fillPath(spec, values)
    } catch (error) {
      return spec.paginated ? new PagePromise(() => Promise.reject(error)) : Promise.reject(error)
    }
    const request = (query?: object): ApiRequest => ({
      method: spec.httpMethod,
      path,
      auth: spec.auth,
      ...(spec.input === 'body' ? { body: input } : {}),
      ...(query ? { query } : {}),
      ...(options ? { options } : {}),
    })
    if (!spec.paginated)
      return send(request(spec.input === 'query' ? (input as object | undefined) : undefined)).then(
        (response) => response.data,
      )
    const filters = (input ?? {}) as Record<string, unknown>
    const load = async (cursor: string | undefined): Promise<Page<unknown>> => {
      const response = await send<ListEnvelope<unknown>>(
        request(cursor === undefined ? filters : { ...filters, cursor }),
      )
      return new Page(response.data, response.requestId, (next) => load(next))
    }
    return new PagePromise(() => load(filters.cursor as string | undefined))
  }
}

function fillPath(spec: OperationSpec, values: unknown[]): string {
  let index = 0
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[index++]
    if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`)
    return encodeURIComponent(value)
  })
}
