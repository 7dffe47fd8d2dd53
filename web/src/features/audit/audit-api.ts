import { eventHash, verifyChain, verifyCheckpoint, verifyInclusion, type ChainHead } from '@oeuvre/sdk'
import { queryOptions } from '@tanstack/react-query'
import { api, ApiError, unwrap, type Schemas } from '../../api/client'

/** The audit log's search parameters: its filters and cursor. */
export interface AuditSearch {
  action?: string | undefined
  since?: string | undefined
  until?: string | undefined
  cursor?: string | undefined
}

export type OrgEvent = Schemas['OrgEvent']
export type OrgEventDetail = Schemas['OrgEventDetail']

/** The API's page size for the audit log, and its largest for the walk of the whole chain. */
const PAGE_SIZE = 25
const WALK_PAGE_SIZE = 100

export const auditKeys = {
  all: ['audit'] as const,
  list: (search: AuditSearch) => ['audit', 'list', search] as const,
  one: (id: string) => ['audit', 'one', id] as const,
}

export const auditListQuery = (search: AuditSearch) =>
  queryOptions({
    queryKey: auditKeys.list(search),
    queryFn: () =>
      unwrap(
        api.GET('/api/org-events', {
          params: {
            query: {
              limit: PAGE_SIZE,
              order: 'desc',
              ...(search.action ? { action: search.action } : {}),
              ...(search.since ? { since: search.since } : {}),
              ...(search.until ? { until: search.until } : {}),
              ...(search.cursor ? { cursor: search.cursor } : {}),
            },
          },
        }),
      ),
  })

export type AuditActor = Schemas['AuditActor']

/** Who did it, for people: a person's name and email, a client's name, or the system; the id if the page names no one. */
export function actorName(actors: readonly AuditActor[] | undefined, userId: string): string {
  const actor = actors?.find((candidate) => candidate.id === userId)
  if (!actor) return userId
  if (actor.kind === 'person') return actor.email ? `${actor.name} (${actor.email})` : actor.name
  if (actor.kind === 'service') return `${actor.name} (API credential)`
  return actor.name || 'The system'
}

export const auditEventQuery = (id: string) =>
  queryOptions({
    queryKey: auditKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/org-events/{id}', { params: { path: { id } } })),
  })

/** `sha256:` and the first 12 hex digits: enough to tell events apart in a list. */
export const shortHash = (hash: string) => `${hash.slice(0, 19)}…`

/** Whether the event's hash recomputes (with the SDK, Web Crypto) from its fields and the hash before it. */
export async function hashRecomputes(event: OrgEventDetail): Promise<boolean> {
  const { previousHash, ...presented } = event
  return (await eventHash(presented, previousHash)) === event.hash
}

export type ChainWalk =
  | { state: 'intact'; events: number; head: ChainHead | null }
  | { state: 'broken'; sequence: number; eventId?: string | undefined; reason: string; detail: string }

/**
 * Walks the whole log, oldest first, page by page (no filters: a filtered feed has gaps by
 * design), recomputing every hash in the browser. The next page is fetched while one is checked;
 * `onProgress(checked, loaded, done)` as each page arrives (loaded: the events fetched so far).
 */
export async function walkChain(
  onProgress: (checked: number, loaded: number, done: boolean) => void,
  signal: AbortSignal,
): Promise<ChainWalk> {
  const fetchPage = (cursor: string | undefined) =>
    unwrap(
      api.GET('/api/org-events', {
        params: { query: { limit: WALK_PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
        signal,
      }),
    )
  let after: ChainHead | undefined
  let checked = 0
  let page = await fetchPage(undefined)
  let loaded = page.data.length
  onProgress(checked, loaded, false)
  for (;;) {
    const more = page.pagination.hasMore && page.pagination.cursor
    const next = more ? fetchPage(page.pagination.cursor ?? undefined) : undefined
    // A fetch that fails while this page is checked is reported when it is awaited, not as unhandled.
    next?.catch(() => undefined)
    const verdict = await verifyChain(page.data, after ? { after } : {})
    signal.throwIfAborted()
    if (!verdict.ok)
      return {
        state: 'broken',
        sequence: verdict.sequence,
        eventId: verdict.eventId,
        reason: verdict.reason,
        detail: verdict.detail,
      }
    checked += verdict.checked
    if (verdict.checked > 0) after = verdict.head
    if (!next) {
      onProgress(checked, loaded, true)
      return { state: 'intact', events: checked, head: after ?? null }
    }
    page = await next
    loaded += page.data.length
    onProgress(checked, loaded, false)
    // Let the page show the progress before the next page is checked.
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

export type InclusionCheck =
  | { verified: true; sealId: string; keyId: string; treeSize: number }
  | { verified: false; sealId?: string | undefined; reason: string }

/**
 * The event's inclusion proof in the newest seal, that seal and the service's public keys,
 * checked in the browser with the SDK (Web Crypto): the proof is of this event's hash, the
 * seal's checkpoint is signed by the key it names, and the audit path leads to its root.
 */
export async function checkInclusion(event: OrgEvent): Promise<InclusionCheck> {
  let proof: Schemas['InclusionProof']
  try {
    proof = await unwrap(api.GET('/api/org-events/{id}/proof', { params: { path: { id: event.id } } }))
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return { verified: false, reason: error.problem.detail }
    throw error
  }
  const [seal, keys] = await Promise.all([
    unwrap(api.GET('/api/seals/{sealId}', { params: { path: { sealId: proof.sealId } } })),
    unwrap(api.GET('/v1/evidence/keys')),
  ])
  const sealId = seal.id
  if (proof.eventHash !== event.hash)
    return { verified: false, sealId, reason: `the proof is of ${proof.eventHash}, not of this event's hash` }
  if (!(await verifyCheckpoint(seal, keys)))
    return {
      verified: false,
      sealId,
      reason: `the seal's checkpoint is not signed by key ${seal.keyId} of /v1/evidence/keys, or does not state the seal's size and root`,
    }
  if (!(await verifyInclusion(proof, seal)))
    return { verified: false, sealId, reason: `the audit path does not lead from this event to the seal's root` }
  return { verified: true, sealId, keyId: seal.keyId, treeSize: seal.treeSize }
}
