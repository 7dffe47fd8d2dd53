import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query'
import { ApiError } from '../api/client'
import { useIdempotencyKey } from './idempotency'
import { signInAgain } from './sign-in-again'

// A type, not an interface: it must fit openapi-fetch's `headers` record.
export type IdempotencyHeaders = { 'Idempotency-Key': string }

export interface WriteOptions<Vars, Result> extends Omit<UseMutationOptions<Result, Error, Vars>, 'mutationFn'> {
  /**
   * The request, sending the headers given:
   * `(body, headers) => unwrap(api.POST('/api/creators', { body, headers }))`.
   */
  request: (vars: Vars, headers: IdempotencyHeaders) => Promise<Result>
  /** What makes two calls the same request, sent with the same key: the variables (the body) by default. */
  sameAs?: (vars: Vars) => unknown
  /** The family's queries: refetched after the write, and after a 409 or 422 (the record changed meanwhile). */
  invalidates?: readonly QueryKey[]
}

/**
 * Every write of the app. The Idempotency-Key is built in: the same request sent again (a double
 * click, a retry) carries the same key, so the API does it once; a changed body gets a new key.
 * A 401 (the session ended) asks to sign in again over the page and then sends the same request
 * with the same key; closing that dialog fails the write with `SignedOut`, and the form stays as
 * it was. A 409 or 422 refetches `invalidates`, so the page shows the state the server kept.
 */
export function useWrite<Vars = void, Result = unknown>({
  request,
  sameAs = (vars) => vars,
  invalidates = [],
  onSuccess,
  onError,
  ...options
}: WriteOptions<Vars, Result>) {
  const queryClient = useQueryClient()
  const keyFor = useIdempotencyKey()
  const refetch = () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
  return useMutation<Result, Error, Vars>({
    ...options,
    mutationFn: async (vars) => {
      const headers = { 'Idempotency-Key': keyFor(sameAs(vars) ?? null) }
      try {
        return await request(vars, headers)
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error
        await signInAgain()
        return request(vars, headers)
      }
    },
    onSuccess: async (...args) => {
      await refetch()
      await onSuccess?.(...args)
    },
    onError: async (...args) => {
      const [error] = args
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) await refetch()
      await onError?.(...args)
    },
  })
}
