import type { ReactNode } from 'react'

/** The page's one <h1> and its actions (write buttons only for roles that may). */
export function PageHeader({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {children}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  )
}
