import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { api, fieldErrors, unwrap } from '../../api/client'
import { loginRoute } from '../../app/routes'
import { Button, FormError, TextField } from '../../ui'
import { AuthLayout } from './auth-layout'

/** Only a path of this app: never an open redirect to another site. */
export function safeRedirect(target: string | undefined): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : '/catalog'
}

function LoginPage() {
  const { redirect } = loginRoute.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(api.POST('/api/auth/login/cookie', { body })),
    onSuccess: async () => {
      queryClient.clear()
      await navigate({ href: safeRedirect(redirect) })
    },
  })
  const { fields, general } = fieldErrors(login.error)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    login.mutate({ email: String(form.get('email')), password: String(form.get('password')) })
  }
  return (
    <AuthLayout title="Log in">
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />
        <TextField
          label="Password"
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
        New here?{' '}
        <Link to="/signup" search={{ redirect }}>
          Sign up
        </Link>
      </p>
    </AuthLayout>
  )
}

export const route = createLazyRoute('/login')({ component: LoginPage })
