import { Link } from '@tanstack/react-router'

/** A path no page has (a mistyped or outdated link). */
export function NotFound() {
  return (
    <main className="auth" id="main">
      <p className="brand">Oeuvre</p>
      <div className="auth-card">
        <h1>Page not found</h1>
        <p>There is no page at this address.</p>
        <p>
          <Link to="/">Go to the catalog</Link>
        </p>
      </div>
    </main>
  )
}
