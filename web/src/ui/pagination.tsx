import { Button } from './button'

export interface PaginationProps {
  /** The API's `pagination.cursor` of the page shown (null on the last page). */
  nextCursor: string | null
  hasMore: boolean
  /** True when the page shown is not the first (a cursor is in the URL). */
  paged: boolean
  onNext: (cursor: string) => void
  onFirst: () => void
}

/** Keyset paging: the next page by the API's cursor, back to the first; the browser's Back goes one page back. */
export function Pagination({ nextCursor, hasMore, paged, onNext, onFirst }: PaginationProps) {
  if (!hasMore && !paged) return null
  return (
    <nav className="pagination" aria-label="Pagination">
      <Button onClick={onFirst} disabled={!paged}>
        First page
      </Button>
      <Button onClick={() => nextCursor && onNext(nextCursor)} disabled={!hasMore || !nextCursor}>
        Next page
      </Button>
    </nav>
  )
}
