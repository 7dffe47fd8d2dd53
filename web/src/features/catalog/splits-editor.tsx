import { useId } from 'react'
import { Button } from '../../ui'
import { CREATOR_ROLES, roleLabel, type Creator } from '../creators/creators-api'
import type { Split } from './catalog-api'

/** The rule the API checks: splits are whole basis points summing to exactly 10000 (100%). */
export const WHOLE_BPS = 10000

export interface SplitDraft {
  key: string
  creatorId: string
  role: Split['role']
  /** As typed: a whole number of basis points, or not yet. */
  shareBps: string
}

export function splitTotal(splits: readonly SplitDraft[]): number {
  return splits.reduce((sum, split) => sum + (/^\d+$/.test(split.shareBps.trim()) ? Number(split.shareBps) : 0), 0)
}

/** bps as a percentage for reading (10000 = 100%): integer arithmetic, no float rounding shown. */
export function percent(bps: number): string {
  const whole = Math.trunc(bps / 100)
  const rest = Math.abs(bps % 100)
  return `${whole}${rest ? `.${String(rest).padStart(2, '0').replace(/0$/, '')}` : ''}%`
}

interface SplitsEditorProps {
  splits: SplitDraft[]
  onChange: (splits: SplitDraft[]) => void
  creators: readonly Creator[]
  /** The API's errors for `splits` and `splits.N.field`. */
  errors: Record<string, string>
}

const SPLIT_FIELDS: Record<string, string> = { creatorId: 'creator', role: 'role', shareBps: 'share (basis points)' }

/** The visible label of a split's field by the API's param (`splits.0.shareBps` → "Split 1: share (basis points)"). */
export function splitLabel(param: string): string | undefined {
  if (param === 'splits') return 'Splits'
  const match = /^splits\.(\d+)(?:\.(\w+))?$/.exec(param)
  if (!match) return undefined
  const row = `Split ${Number(match[1]) + 1}`
  if (!match[2]) return row
  const field = SPLIT_FIELDS[match[2]]
  return field ? `${row}: ${field}` : undefined
}

let nextKey = 0
export const newSplit = (creatorId = '', role: Split['role'] = 'artist', shareBps = ''): SplitDraft => ({
  key: `split-${(nextKey += 1)}`,
  creatorId,
  role,
  shareBps,
})

/** One row per creator and role; the running total against 10000 is shown (and announced) as you type. */
export function SplitsEditor({ splits, onChange, creators, errors }: SplitsEditorProps) {
  const id = useId()
  const total = splitTotal(splits)
  const left = WHOLE_BPS - total
  const update = (key: string, change: Partial<SplitDraft>) =>
    onChange(splits.map((split) => (split.key === key ? { ...split, ...change } : split)))
  const status =
    total === WHOLE_BPS
      ? `Total ${total} of ${WHOLE_BPS} basis points (100%): the splits are complete.`
      : total < WHOLE_BPS
        ? `Total ${total} of ${WHOLE_BPS} basis points (${percent(total)}): ${left} left to assign. Splits must sum to exactly ${WHOLE_BPS}.`
        : `Total ${total} of ${WHOLE_BPS} basis points (${percent(total)}): ${-left} too many. Splits must sum to exactly ${WHOLE_BPS}.`
  const summaryError = errors.splits
  return (
    <fieldset className="splits" aria-describedby={`${id}-total`}>
      <legend>Splits</legend>
      <p className="field-hint">
        Who is paid from this entry&apos;s revenue, in basis points: 10000 is 100%, 2500 is 25%.
      </p>
      {splits.map((split, index) => {
        const label = `Split ${index + 1}`
        const error = (field: string) => errors[`splits.${index}.${field}`]
        const rowError = errors[`splits.${index}`]
        return (
          <div className="split-row" key={split.key} role="group" aria-label={label}>
            <div className="field">
              <label htmlFor={`${id}-${split.key}-creator`}>{label}: creator</label>
              <select
                id={`${id}-${split.key}-creator`}
                value={split.creatorId}
                aria-invalid={error('creatorId') ? true : undefined}
                aria-describedby={error('creatorId') ? `${id}-${split.key}-creator-error` : undefined}
                onChange={(event) => update(split.key, { creatorId: event.target.value })}
              >
                <option value="">Choose a creator</option>
                {creators.map((creator) => (
                  <option key={creator.id} value={creator.id}>
                    {creator.name}
                  </option>
                ))}
              </select>
              {error('creatorId') ? (
                <p className="field-error" id={`${id}-${split.key}-creator-error`}>
                  {error('creatorId')}
                </p>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor={`${id}-${split.key}-role`}>{label}: role</label>
              <select
                id={`${id}-${split.key}-role`}
                value={split.role}
                onChange={(event) => update(split.key, { role: event.target.value as Split['role'] })}
              >
                {CREATOR_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(role)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-${split.key}-share`}>{label}: share (basis points)</label>
              <input
                id={`${id}-${split.key}-share`}
                inputMode="numeric"
                pattern="[0-9]*"
                value={split.shareBps}
                aria-invalid={error('shareBps') ? true : undefined}
                aria-describedby={error('shareBps') ? `${id}-${split.key}-share-error` : undefined}
                onChange={(event) => update(split.key, { shareBps: event.target.value })}
              />
              {error('shareBps') ? (
                <p className="field-error" id={`${id}-${split.key}-share-error`}>
                  {error('shareBps')}
                </p>
              ) : null}
            </div>
            <Button
              className="split-remove"
              onClick={() => onChange(splits.filter((other) => other.key !== split.key))}
              disabled={splits.length === 1}
            >
              Remove split {index + 1}
            </Button>
            {rowError ? <p className="field-error split-row-error">{rowError}</p> : null}
          </div>
        )
      })}
      <Button onClick={() => onChange([...splits, newSplit('', 'artist', left > 0 ? String(left) : '')])}>
        Add split
      </Button>
      <p
        id={`${id}-total`}
        className={total === WHOLE_BPS ? 'splits-total splits-total-ok' : 'splits-total splits-total-off'}
        role="status"
      >
        {status}
      </p>
      {summaryError ? <p className="field-error">{summaryError}</p> : null}
    </fieldset>
  )
}
