import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, TextField } from '../../ui'
import { CREDENTIAL_LABELS, logInWithCookie, safeRedirect } from './auth-api'
import { forgetUnsaved } from '../portal/sandbox'
import { AuthLayout } from './auth-layout'

const routeApi = getRouteApi('/login')

function LoginPage() {
  const { redirect, notice } = routeApi.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useMutation({
    mutationFn: logInWithCookie,
    onSuccess: async () => {
      // Another person's sandbox secret, if one was left unsaved in this tab, is not theirs to see.
      forgetUnsaved()
      queryClient.clear()
      await navigate({ href: safeRedirect(redirect) })
    },
  })
  const { fields, general } = formErrors(login.error, CREDENTIAL_LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    login.mutate({ email: String(form.get('email')), password: String(form.get('password')) })
  }
  return (
    <AuthLayout title="Log in">
      {notice === 'password-changed' ? (
        <p role="status" className="done">
          Your password is changed, and every session of yours has ended. Log in with the new password.
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        <TextField
          label={CREDENTIAL_LABELS.email}
          name="email"
          type="email"
          autoComplete="email"
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
          Log in
        </Button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <p>
        New here?{' '}
        <Link to="/signup" search={{ redirect }}>
          Sign up
        </Link>
      </p>
    </AuthLayout>
  )
}

export const route = createLazyRoute('/login')({ component: LoginPage })
