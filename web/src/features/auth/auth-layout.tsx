import type { ReactNode } from 'react'

/** Sign-in pages: the product's name and one card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth" id="main">
      <p className="brand">Oeuvre</p>
      <div className="auth-card">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  )
}
