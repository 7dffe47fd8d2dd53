import type { ReactNode } from 'react'
import { ApiError } from '../api/client'
import { problemMessage } from '../api/messages'
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

/** What went wrong in people's words (the message catalogue), with the request id to quote, and a way to try again. */
export function ErrorState({
  error,
  onRetry,
  message,
}: {
  error: unknown
  onRetry?: () => void
  /** The page's own words for it, when it says it better (an error shown at the filters). */
  message?: string | undefined
}) {
  const problem = error instanceof ApiError ? error.problem : null
  return (
    <div className="error-state" role="alert">
      <p className="error-state-title">{problem ? problem.title : 'Something went wrong'}</p>
      <p>{message ?? problemMessage(error)}</p>
      {problem?.requestId ? (
        <p className="muted">
          Request id: <code>{problem.requestId}</code>
        </p>
      ) : null}
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  )
}
