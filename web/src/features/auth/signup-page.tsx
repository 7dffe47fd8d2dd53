import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { api, fieldErrors, unwrap } from '../../api/client'
import { signupRoute } from '../../app/routes'
import { Button, FormError, TextField } from '../../ui'
import { AuthLayout } from './auth-layout'
import { safeRedirect } from './login-page'

function SignupPage() {
  const { redirect } = signupRoute.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const signup = useMutation({
    mutationFn: (body: { name: string; email: string; password: string }) =>
      unwrap(api.POST('/api/auth/signup/cookie', { body })),
    onSuccess: async () => {
      queryClient.clear()
      // A new account has no org yet: creating one comes first, unless it came to accept an invitation to one.
      await (redirect ? navigate({ href: safeRedirect(redirect) }) : navigate({ to: '/orgs/new' }))
    },
  })
  const { fields, general } = fieldErrors(signup.error)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    signup.mutate({
      name: String(form.get('name')),
      email: String(form.get('email')),
      password: String(form.get('password')),
    })
  }
  return (
    <AuthLayout title="Create your account">
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        <TextField label="Name" name="name" autoComplete="name" required error={fields.name} />
        <TextField label="Email" name="email" type="email" autoComplete="email" required error={fields.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters."
          error={fields.password}
        />
        <Button type="submit" variant="primary" busy={signup.isPending}>
          Sign up
        </Button>
      </form>
      <p>
        Have an account?{' '}
        <Link to="/login" search={{ redirect }}>
          Log in
        </Link>
      </p>
    </AuthLayout>
  )
}

export const route = createLazyRoute('/signup')({ component: SignupPage })
