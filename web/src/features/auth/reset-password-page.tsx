import { useMutation } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, TextField } from '../../ui'
import { confirmPasswordReset } from './auth-api'
import { AuthLayout } from './auth-layout'

const routeApi = getRouteApi('/reset-password')

// The token has no field of its own: its refusal (a link used or too old) shows at the top of the form.
const LABELS = { password: 'New password', repeated: 'Same password again', token: 'The link' }

/**
 * The emailed link: a new password, typed twice. The API takes the link once, for 60 minutes, and
 * ends every session of the person; the login page then says the password changed.
 */
function ResetPasswordPage() {
  const { token } = routeApi.useSearch()
  const navigate = useNavigate()
  const [mismatch, setMismatch] = useState(false)
  const confirm = useMutation({
    mutationFn: confirmPasswordReset,
    onSuccess: () => navigate({ to: '/login', search: { notice: 'password-changed' } }),
  })
  const { fields, general: other } = formErrors(confirm.error, LABELS)
  const general = [fields.token, other].filter(Boolean).join(' ') || null
  if (!token)
    return (
      <AuthLayout title="Set a new password">
        <p>This link carries no reset token. Open the whole link from the email, or ask for a new one.</p>
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </AuthLayout>
    )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const password = String(form.get('password') ?? '')
    const same = password === String(form.get('repeated') ?? '')
    setMismatch(!same)
    if (same) confirm.mutate({ token, password })
    else confirm.reset()
  }
  return (
    <AuthLayout title="Set a new password">
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        <TextField
          label={LABELS.password}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters. Every session of yours ends once it is set."
          error={fields.password}
        />
        <TextField
          label={LABELS.repeated}
          name="repeated"
          type="password"
          autoComplete="new-password"
          required
          error={mismatch ? 'Type the same password in both fields' : undefined}
        />
        <Button type="submit" variant="primary" busy={confirm.isPending}>
          Set the password
        </Button>
      </form>
      {general ? (
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      ) : null}
    </AuthLayout>
  )
}

export const route = createLazyRoute('/reset-password')({ component: ResetPasswordPage })
