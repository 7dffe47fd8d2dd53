import { Type, type TObject, type TString } from 'typebox'
import { AppError } from '../../platform/errors.js'

/**
 * Where a record family's routes are mounted: the session surface (`/api/catalog`,
 * auth 'session') or the partner surface (`/v1/orgs/:orgId/catalog`, auth 'client').
 * Handlers only read `request.ctx`, so the same services serve both.
 */
export interface RouteMount {
  prefix: string
  auth: 'session' | 'client'
}

const RecordId = Type.String({ minLength: 1, maxLength: 64, description: 'The record id' })
const OrgIdParam = Type.String({ minLength: 1, maxLength: 64, description: 'The org id (must be the token’s org)' })

/** `:id` params, plus `:orgId` on the partner surface; handlers read only `id`. */
export function idParams(mount: RouteMount): TObject<{ id: TString }> {
  const params =
    mount.auth === 'client' ? Type.Object({ orgId: OrgIdParam, id: RecordId }) : Type.Object({ id: RecordId })
  return params as unknown as TObject<{ id: TString }>
}

/** `:orgId` params on the partner surface, nothing on the session surface. */
export function orgParams(mount: RouteMount): TObject | undefined {
  return mount.auth === 'client' ? Type.Object({ orgId: OrgIdParam }) : undefined
}

export function mountTags(mount: RouteMount, family: string): string[] {
  return [mount.auth === 'session' ? `Session surface: ${family}` : `Partner surface: ${family}`]
}

/** The constraint a PostgreSQL unique violation (23505) names, or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null
  const { code, constraint } = error as { code?: unknown; constraint?: unknown }
  return code === '23505' ? String(constraint ?? '') : null
}

/**
 * Runs a write whose checks a concurrent writer can race: a unique index it hit first
 * becomes 409 conflict with that index's message; anything else passes through.
 */
export async function conflictsAsAppErrors<T>(
  work: () => Promise<T>,
  conflicts: Readonly<Record<string, string>>,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    const constraint = uniqueViolation(error)
    const detail = constraint === null ? undefined : conflicts[constraint]
    if (detail) throw new AppError('conflict', detail)
    throw error
  }
}

export const iso = (date: Date): string => date.toISOString()
export const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null)
