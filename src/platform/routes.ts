import type { TSchema } from 'typebox'
import { ProblemSchema } from './errors.js'

/**
 * A route's response schemas: its successes and the errors particular to it (a 409 conflict,
 * 422 business rules). The errors every route of its kind can answer (401, 403, 404, 429, 503,
 * ...) are added to the OpenAPI document from its config (`finishDocument`).
 */
export function responses(success: Record<number, TSchema>, errors: readonly number[] = []): Record<number, TSchema> {
  const all: Record<number, TSchema> = { ...success }
  for (const status of errors) all[status] = ProblemSchema
  return all
}

export const NoContent = { type: 'null', description: 'No content' } as unknown as TSchema
