import { Link, useBlocker } from '@tanstack/react-router'
import { useEffect, useId, useState } from 'react'
import { CopyableId } from '../../ui'
import { SecretReveal } from '../integrations/secret-reveal'
import { REGION_NAMES, TIER_NAMES } from './portal-names'
import { QuickStart } from './quick-start'
import { forgetUnsaved, keepUnsaved, type Sandbox } from './sandbox'

const LEAVE_WARNING = 'The client secret is shown only now. Leave without saving it?'

/**
 * A new partner's sandbox: its org id, client id and secret, each to copy, and the quick start
 * filled with them. The secret stays (kept in this tab through a reload, and leaving asks first)
 * until the person ticks that they saved it; then the way to the portal opens.
 */
export function SandboxReady({ sandbox }: { sandbox: Sandbox }) {
  const [saved, setSaved] = useState(sandbox.secret === null)
  const savedId = useId()
  useEffect(() => {
    if (saved) forgetUnsaved()
    else keepUnsaved(sandbox)
  }, [saved, sandbox])
  useBlocker({
    shouldBlockFn: () => !saved && !window.confirm(LEAVE_WARNING),
    enableBeforeUnload: () => !saved,
  })
  return (
    <>
      <p>
        {sandbox.company} is a partner ({TIER_NAMES[sandbox.tier]}, data in{' '}
        {REGION_NAMES[sandbox.region] ?? sandbox.region}
        ). Your sandbox org has demo data to try the API on, and a sandbox credential to call it with.
      </p>
      <dl className="details">
        <dt>Org id</dt>
        <dd>
          <CopyableId label="org id" value={sandbox.orgId} />
        </dd>
        <dt>Client id</dt>
        <dd>
          <CopyableId label="client id" value={sandbox.clientId} />
        </dd>
        <dt>Scopes</dt>
        <dd>{sandbox.scopes.join(', ')}</dd>
      </dl>
      {sandbox.secret === null ? (
        <p className="notice">
          The client secret was shown when you first applied and is not kept. Rotate the credential under Credentials
          for a new one.
        </p>
      ) : (
        <SecretReveal label="Sandbox client secret" secret={sandbox.secret} />
      )}
      <QuickStart
        baseUrl={window.location.origin}
        orgId={sandbox.orgId}
        clientId={sandbox.clientId}
        scopes={sandbox.scopes}
        secret={sandbox.secret}
      />
      {sandbox.secret === null ? null : (
        <p className="choice-option saved-secret">
          <input id={savedId} type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} />
          <label htmlFor={savedId}>I have saved the secret</label>
        </p>
      )}
      {saved ? (
        <p>
          <Link to="/portal">Continue to the partner portal</Link>
        </p>
      ) : (
        <p className="muted">Tick the box once the secret is stored: the way to the portal opens then.</p>
      )}
    </>
  )
}
