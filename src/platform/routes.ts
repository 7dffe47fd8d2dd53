import type { TSchema } from 'typebox'
import { ProblemSchema } from './errors.js'

const AUTHED_ERRORS = [401, 403, 404, 429, 500] as const

/**
 * Response schemas for every status a route can answer: its successes, the errors it
 * names, and the ones every authenticated route can give.
 */
export function responses(
  success: Record<number, TSchema>,
  errors: readonly number[] = [],
  options: { authed?: boolean } = { authed: true },
): Record<number, TSchema> {
  const all: Record<number, TSchema> = { ...success }
  const statuses = new Set<number>([...errors, ...(options.authed === false ? [429, 500] : AUTHED_ERRORS)])
  for (const status of statuses) all[status] = ProblemSchema
  return all
}

export const NoContent = { type: 'null', description: 'No content' } as unknown as TSchema
