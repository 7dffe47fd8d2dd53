import type { ReactNode } from 'react'

/** Sign-in pages: the product's name and one card (`wide` for one that shows commands). */
export function AuthLayout({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <main className={wide ? 'auth auth-page-wide' : 'auth'} id="main">
      <p className="brand">Oeuvre</p>
      <div className="auth-card">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  )
}
