import type { ReactNode } from 'react'
import { ApiError } from '../api/client'
import { Button } from './button'

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  )
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-state-title">{title}</p>
      {children}
    </div>
  )
}

/** What went wrong, with the request id to quote, and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const problem = error instanceof ApiError ? error.problem : null
  return (
    <div className="error-state" role="alert">
      <p className="error-state-title">{problem ? problem.title : 'Something went wrong'}</p>
      <p>{problem ? problem.detail : error instanceof Error ? error.message : String(error)}</p>
      {problem?.requestId ? <p className="muted">Request id: {problem.requestId}</p> : null}
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  )
}
