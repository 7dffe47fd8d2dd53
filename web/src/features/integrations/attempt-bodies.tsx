import type { Attempt } from './integrations-api'

/** JSON indented for reading; anything else (a cut-off body, plain text) as it came. */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/** Each attempt opens to the body sent (its first 4 KiB) and the body received, in scrollable monospace blocks. */
export function AttemptBodies({ attempts }: { attempts: readonly Attempt[] }) {
  return (
    <div className="attempt-bodies">
      {attempts.map((attempt) => (
        <details key={attempt.attempt} className="attempt-body">
          <summary>Attempt {attempt.attempt}: request and response bodies</summary>
          <h4>Request body sent</h4>
          <pre className="body-block" tabIndex={0} aria-label={`Request body of attempt ${attempt.attempt}`}>
            {readable(attempt.requestBody)}
          </pre>
          {attempt.requestBody.length >= 4096 ? <p className="muted">The first 4 KiB of the body.</p> : null}
          <h4>Response body received</h4>
          {attempt.responseBody === null || attempt.responseBody === '' ? (
            <p className="muted">{attempt.responseBody === null ? 'No response received.' : 'An empty body.'}</p>
          ) : (
            <pre className="body-block" tabIndex={0} aria-label={`Response body of attempt ${attempt.attempt}`}>
              {readable(attempt.responseBody)}
            </pre>
          )}
        </details>
      ))}
    </div>
  )
}
