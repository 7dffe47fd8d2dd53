import { useMutation } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, TextField } from '../../ui'
import { requestPasswordReset } from './auth-api'
import { AuthLayout } from './auth-layout'

const LABELS = { email: 'Email' }

/**
 * Asks for a reset link by email. The API answers the same whether or not an account has that
 * address (so the page cannot tell anyone which addresses have one), and so does the page.
 */
function ForgotPasswordPage() {
  const reset = useMutation({ mutationFn: requestPasswordReset })
  const { fields, general } = formErrors(reset.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    reset.mutate(String(new FormData(event.currentTarget).get('email') ?? '').trim())
  }
  if (reset.isSuccess)
    return (
      <AuthLayout title="Check your email">
        <p role="status">
          If an account exists for <strong>{reset.variables}</strong>, we sent a link to it. The link works once, for 60
          minutes.
        </p>
        <p>
          No email after a few minutes? Look in your spam folder, or{' '}
          <Link to="/forgot-password" onClick={() => reset.reset()}>
            ask again
          </Link>
          .
        </p>
        <p>
          <Link to="/login" search={{}}>
            Back to log in
          </Link>
        </p>
      </AuthLayout>
    )
  return (
    <AuthLayout title="Reset your password">
      <p>Enter the email address you log in with: we send a link to set a new password.</p>
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        <TextField label={LABELS.email} name="email" type="email" autoComplete="email" required error={fields.email} />
        <Button type="submit" variant="primary" busy={reset.isPending}>
          Send the link
        </Button>
      </form>
      <p>
        Remembered it?{' '}
        <Link to="/login" search={{}}>
          Log in
        </Link>
      </p>
    </AuthLayout>
  )
}

export const route = createLazyRoute('/forgot-password')({ component: ForgotPasswordPage })
