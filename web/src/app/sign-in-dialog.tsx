import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formErrors } from '../api/messages'
import { CREDENTIAL_LABELS, logInWithCookie, setActiveOrg, type Credentials } from '../features/auth/auth-api'
import { Button, Dialog, FormError, TextField } from '../ui'
import { meQuery, type Me } from './session'
import { signInStore } from './sign-in-again'

/**
 * Over the page whose session ended: sign in again with the cookie login the login page uses.
 * The same person signed in again: the org the page was in is made active again (a new session
 * starts in the first org), the refused write is sent again and the page's queries refetched.
 * Another person: nothing of the page is theirs, so the app starts again from the catalog.
 */
export default function SignInDialog() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const before = queryClient.getQueryData<Me>(meQuery.queryKey)
  const login = useMutation({
    mutationFn: async (body: Credentials) => {
      const session = await logInWithCookie(body)
      if (
        before &&
        session.user.id === before.user.id &&
        before.activeOrgId &&
        session.activeOrgId !== before.activeOrgId
      )
        await setActiveOrg(before.activeOrgId).catch(() => undefined)
      return session
    },
    onSuccess: async (session) => {
      if (before && session.user.id !== before.user.id) {
        signInStore.cancelled()
        queryClient.clear()
        await navigate({ to: '/catalog', search: {} })
        return
      }
      signInStore.signedIn()
      await queryClient.invalidateQueries()
    },
  })
  const { fields, general } = formErrors(login.error, CREDENTIAL_LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    login.mutate({ email: String(form.get('email') ?? '').trim(), password: String(form.get('password') ?? '') })
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : signInStore.cancelled())}
      title="Sign in to continue"
      description="Your session has ended. Sign in again: the page stays as it is, and what you were sending is sent once you are in."
    >
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField
          label={CREDENTIAL_LABELS.email}
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={before?.user.email ?? ''}
          required
          error={fields.email}
        />
        <TextField
          label={CREDENTIAL_LABELS.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fields.password}
        />
        <Button type="submit" variant="primary" busy={login.isPending}>
          Sign in
        </Button>
      </form>
    </Dialog>
  )
}
