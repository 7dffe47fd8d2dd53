import { useNavigate } from '@tanstack/react-router'
import type { FormEvent, ReactNode } from 'react'
import { Button } from './button'

type Search = { cursor?: string | undefined }

export interface FilterFormProps<Filters extends Search> {
  /** The form's accessible name: "Filter payouts". */
  label: string
  /** The page's search parameters now: the fields start from them (`defaultValue`). */
  search: Filters
  /** The new filters from the form's fields: `value(name)` is a field's trimmed text, or undefined when empty. */
  read: (value: (name: string) => string | undefined) => Filters
  /** Parameters that are not filters (the catalog's page size): kept by "Clear filters" and not counted as filters. */
  keep?: readonly (keyof Filters)[]
  /** Where a filter change goes instead of the page's own URL (a mounted page passes its own). */
  onSearch?: (search: Filters) => void
  children: ReactNode
}

const withoutCursor = <Filters extends Search>(search: Filters): Filters => ({ ...search, cursor: undefined })

/**
 * The filters of a list: a `<form role="search">` whose submit navigates to the same page with
 * the new filters and no cursor (a cursor belongs to the filters it was made with), and "Clear
 * filters" while any is set. The fields are the page's (`TextField`, `SelectField` with
 * `defaultValue` from `search`); reloading the page shows the same filters.
 */
export function FilterForm<Filters extends Search>({
  label,
  search,
  read,
  keep = [],
  onSearch,
  children,
}: FilterFormProps<Filters>) {
  const navigate = useNavigate()
  const go = (next: Filters) =>
    onSearch ? onSearch(withoutCursor(next)) : void navigate({ to: '.', search: withoutCursor(next) as never })
  const filtered = Object.entries(search).some(
    ([name, value]) => name !== 'cursor' && !(keep as readonly string[]).includes(name) && value !== undefined,
  )
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    go(read((name) => String(form.get(name) ?? '').trim() || undefined))
  }
  const clear = () => go(Object.fromEntries(keep.map((name) => [name, search[name]])) as unknown as Filters)
  return (
    // A new form when the search changes (Back, Clear filters): the fields show the URL's filters again.
    <form className="filters" onSubmit={apply} role="search" aria-label={label} key={JSON.stringify(search)}>
      {children}
      <div className="filters-actions">
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        {filtered ? <Button onClick={clear}>Clear filters</Button> : null}
      </div>
    </form>
  )
}
