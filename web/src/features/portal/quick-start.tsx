import { CopyButton } from '../../ui'

export interface QuickStartValues {
  /** The API's address: this deployment's (`window.location.origin`). */
  baseUrl: string
  orgId: string
  clientId: string
  /** The credential's scopes: the token asks for `events:read` when it has it, else the first. */
  scopes: readonly string[]
  /** The secret when the page has it (right after sign-up); otherwise the commands ask for it. */
  secret: string | null
}

/** The scope the quick start's token asks for: the event feed's, when the credential has it. */
export const quickStartScope = (scopes: readonly string[]) =>
  scopes.includes('events:read') ? 'events:read' : (scopes[0] ?? 'events:read')

/**
 * The first call as bash commands that need only curl and node: a token from /oauth/token (its
 * `access_token` read with node), then the org's event feed. Ids and secrets are single-quoted
 * (they hold no quote).
 */
export function quickStartScript({ baseUrl, orgId, clientId, scopes, secret }: QuickStartValues): string {
  return [
    '# Your sandbox: the API’s address, the org your credential acts in, and the credential',
    `OEUVRE_URL='${baseUrl}'`,
    `ORG_ID='${orgId}'`,
    `CLIENT_ID='${clientId}'`,
    secret === null
      ? "read -rsp 'Client secret: ' CLIENT_SECRET && echo   # paste the secret you saved"
      : `CLIENT_SECRET='${secret}'`,
    '',
    '# 1. An access token (valid one hour), read from the JSON answer with node',
    'ACCESS_TOKEN=$(curl -sS --fail-with-body -u "$CLIENT_ID:$CLIENT_SECRET" \\',
    `  -d grant_type=client_credentials -d scope=${quickStartScope(scopes)} "$OEUVRE_URL/oauth/token" \\`,
    `  | node -p "JSON.parse(require('fs').readFileSync(0, 'utf8')).access_token")`,
    '',
    '# 2. The org’s event feed: JSON, then the HTTP status',
    `curl -sS --fail-with-body -w '\\nHTTP %{http_code}\\n' -H "Authorization: Bearer $ACCESS_TOKEN" \\`,
    '  "$OEUVRE_URL/v1/orgs/$ORG_ID/events"',
  ].join('\n')
}

/** The quick start, filled with the partner's own values, with a button copying the commands. */
export function QuickStart(values: QuickStartValues) {
  const script = quickStartScript(values)
  return (
    <section aria-labelledby="quick-start-heading" className="quick-start">
      <h2 id="quick-start-heading">Quick start: your first call</h2>
      <p>
        In a terminal with <code>bash</code>, <code>curl</code> and <code>node</code>, these commands get an access
        token and read your sandbox org’s event feed (<code>HTTP 200</code> at the end).
        {values.secret === null ? ' They ask for the client secret you saved: it is not shown again.' : ''}
      </p>
      {/* A region of its own: it scrolls sideways on a narrow screen, by keyboard too. */}
      <div role="region" aria-label="Quick start commands" tabIndex={0} className="code-scroll">
        <pre className="code-block">
          <code>{script}</code>
        </pre>
      </div>
      <CopyButton text={script} label="Copy the commands" />
    </section>
  )
}
