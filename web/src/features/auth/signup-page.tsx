import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, TextField } from '../../ui'
import { safeRedirect, signUpWithCookie } from './auth-api'
import { AuthLayout } from './auth-layout'

const routeApi = getRouteApi('/signup')

const LABELS = { name: 'Name', email: 'Email', password: 'Password' }

function SignupPage() {
  const { redirect } = routeApi.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const signup = useMutation({
    mutationFn: signUpWithCookie,
    onSuccess: async () => {
      queryClient.clear()
      // A new account has no org yet: creating one comes first, unless it came to accept an invitation to one.
      await (redirect ? navigate({ href: safeRedirect(redirect) }) : navigate({ to: '/orgs/new' }))
    },
  })
  const { fields, general } = formErrors(signup.error, LABELS)
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
        <TextField label={LABELS.name} name="name" autoComplete="name" required error={fields.name} />
        <TextField label={LABELS.email} name="email" type="email" autoComplete="email" required error={fields.email} />
        <TextField
          label={LABELS.password}
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
