import { useQuery } from '@tanstack/react-query'
import { Field } from '../../ui'
import { isoToLocalDay, localDayEndToIso, localInputToIso } from '../../ui/local-date-time'
import { webhookKindsQuery, WEBHOOK_ACTIONS } from '../integrations/integrations-api'
import { OBJECT_NAMES } from '../integrations/kind-names'
import type { AuditSearch } from './audit-api'

export const FILTERS = { action: 'Action', since: 'From', until: 'To' }

/**
 * The action filter: a select built from the kinds that exist (`GET /api/webhook-kinds`), grouped by
 * object. Each group offers the whole object first ("Payouts (every payout event)": the API's
 * prefix filter `payout`), then its single actions.
 */
export function ActionSelect({ value, error }: { value: string | undefined; error: string | undefined }) {
  const kinds = useQuery(webhookKindsQuery())
  const groups = new Map<string, { kind: string; description: string }[]>()
  for (const entry of kinds.data?.data ?? []) {
    if (!WEBHOOK_ACTIONS.includes(entry.kind)) continue
    groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry])
  }
  // The value the URL holds stays selectable while the kinds load (or if it is not a kind any more).
  const known = value === undefined || groups.has(value) || WEBHOOK_ACTIONS.includes(value)
  return (
    <Field label={FILTERS.action} error={error}>
      {(control) => (
        <select name="action" defaultValue={value ?? ''} key={`${value}-${groups.size}`} {...control}>
          <option value="">Every action</option>
          {known ? null : <option value={value}>{value}</option>}
          {[...groups].map(([object, entries]) => {
            const name = OBJECT_NAMES[object] ?? object
            return (
              <optgroup key={object} label={name}>
                <option value={object}>
                  {name} (every {object.replace(/_/g, ' ')} event)
                </option>
                {entries.map((entry) => (
                  <option key={entry.kind} value={entry.kind}>
                    {entry.kind}: {entry.description}
                  </option>
                ))}
              </optgroup>
            )
          })}
        </select>
      )}
    </Field>
  )
}

/** A day on the reader's calendar; the URL keeps the ISO instant the API takes. */
export function DayField({
  name,
  label,
  iso,
  end,
  error,
  hint,
}: {
  name: string
  label: string
  iso: string | undefined
  /** The field is the end of a range: the day shown is the one before the instant (its next midnight). */
  end?: boolean
  error: string | undefined
  hint: string
}) {
  const shown = iso && end ? new Date(new Date(iso).getTime() - 1).toISOString() : iso
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => <input type="date" name={name} defaultValue={isoToLocalDay(shown)} key={iso} {...control} />}
    </Field>
  )
}

/** The filters as the URL keeps them: days on the reader's clock converted to ISO instants. */
export function readFilters(value: (name: string) => string | undefined): AuditSearch {
  const since = value('since')
  const until = value('until')
  return {
    action: value('action'),
    since: since ? localInputToIso(since) : undefined,
    until: until ? localDayEndToIso(until) : undefined,
  }
}
