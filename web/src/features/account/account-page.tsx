import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { useSession } from '../../app/session'
import { partnerQuery } from '../portal/portal-api'
import { Button, ErrorState, FormError, Loading, PageHeader } from '../../ui'
import {
  CHOSEN_KIND_NAMES,
  emailKindsQuery,
  emailPreferencesQuery,
  isChosenKind,
  SECURITY_KIND_NAMES,
  useSaveEmailPreferences,
  type EmailKind,
  type EmailPreferences,
} from './account-api'

/** The signed-in person: their name and email, and which emails they receive. */
function AccountPage() {
  const { me } = useSession()
  const user = me.data?.user
  return (
    <>
      <PageHeader title="Your account" />
      {user ? (
        <dl className="details">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>Email</dt>
          <dd>{user.email ?? '—'}</dd>
        </dl>
      ) : null}
      <EmailChoices />
      <PartnerProgram />
    </>
  )
}

/** The partner program: the way to the portal for a partner, to apply with this account for anyone else. */
function PartnerProgram() {
  const partner = useQuery({ ...partnerQuery, retry: false, refetchInterval: false, staleTime: 60_000 })
  if (partner.isPending) return null
  return (
    <section aria-labelledby="partner-heading" className="section">
      <h2 id="partner-heading">Partner program</h2>
      {partner.isSuccess ? (
        <p>
          This account is the partner {partner.data.company}: <Link to="/portal">open the partner portal</Link>.
        </p>
      ) : (
        <p>
          Build on Oeuvre’s API with a sandbox of your own; your organisations stay as they are.{' '}
          <Link to="/portal/apply">Apply as a partner with this account</Link>
        </p>
      )}
    </section>
  )
}

/** The non-security kinds as checkboxes, each with the API's description; the security ones listed as always sent. */
function EmailChoices() {
  const kinds = useQuery(emailKindsQuery)
  const preferences = useQuery(emailPreferencesQuery)
  if (kinds.isPending || preferences.isPending) return <Loading label="Loading your email choices…" />
  if (kinds.isError || preferences.isError)
    return (
      <ErrorState
        error={kinds.error ?? preferences.error}
        onRetry={() => {
          void kinds.refetch()
          void preferences.refetch()
        }}
      />
    )
  const chosen = kinds.data.data.filter((kind) => !kind.security && isChosenKind(kind.kind))
  const security = kinds.data.data.filter((kind) => kind.security)
  return (
    <section aria-labelledby="emails-heading" className="section">
      <h2 id="emails-heading">Emails</h2>
      <p>
        Security emails always go, whatever you choose here:{' '}
        {security.map((kind) => SECURITY_KIND_NAMES[kind.kind] ?? kind.kind.replaceAll('_', ' ')).join(', ')}.
      </p>
      <ChoicesForm kinds={chosen} saved={preferences.data} />
    </section>
  )
}

function ChoicesForm({ kinds, saved }: { kinds: EmailKind[]; saved: EmailPreferences }) {
  const save = useSaveEmailPreferences()
  const [done, setDone] = useState(false)
  const { general } = formErrors(save.error)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const body = { ...saved }
    for (const kind of kinds) if (isChosenKind(kind.kind)) body[kind.kind] = form.get(kind.kind) === 'on'
    setDone(false)
    save.mutate(body, { onSuccess: () => setDone(true) })
  }
  return (
    <form onSubmit={submit} className="form" onChange={() => setDone(false)}>
      <FormError message={general} />
      <fieldset className="choice">
        <legend>Also email me about</legend>
        {kinds.map((kind) =>
          isChosenKind(kind.kind) ? (
            <div key={kind.kind} className="choice-described">
              <label className="choice-option">
                <input
                  type="checkbox"
                  name={kind.kind}
                  defaultChecked={saved[kind.kind]}
                  aria-describedby={`email-kind-${kind.kind}`}
                />
                <span>{CHOSEN_KIND_NAMES[kind.kind]}</span>
              </label>
              <p className="field-hint" id={`email-kind-${kind.kind}`}>
                {kind.description}.
              </p>
            </div>
          ) : null,
        )}
      </fieldset>
      <div>
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save email choices
        </Button>
      </div>
      {done ? (
        <p role="status" className="done">
          Saved: your email choices are kept.
        </p>
      ) : null}
    </form>
  )
}

export const route = createLazyRoute('/app/account')({ component: AccountPage })
