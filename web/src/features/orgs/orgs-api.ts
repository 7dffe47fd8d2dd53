import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import { meQuery } from '../../app/session'
import { useWrite } from '../../app/write'
import { setActiveOrg } from '../auth/auth-api'

export type Environment = 'sandbox' | 'production'

/** Creates an org; it becomes the session's active org, so whatever was loaded belonged to another. */
export function useCreateOrg() {
  const queryClient = useQueryClient()
  return useWrite({
    request: (body: { name: string; environment: Environment }, headers) =>
      unwrap(api.POST('/api/orgs', { body, headers })),
    onSuccess: () => queryClient.clear(),
  })
}

/** Switches the session's active org (no record is written: no Idempotency-Key); everything loaded was the other org's. */
export function useSwitchOrg() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setActiveOrg,
    onSuccess: (next) => {
      queryClient.clear()
      queryClient.setQueryData(meQuery.queryKey, next)
    },
  })
}
