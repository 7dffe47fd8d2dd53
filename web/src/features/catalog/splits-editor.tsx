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

/** What the running total says: complete, how much is left to assign, or how much too many. */
function totalStatus(total: number): string {
  const left = WHOLE_BPS - total
  return total === WHOLE_BPS
    ? `Total ${total} of ${WHOLE_BPS} basis points (100%): the splits are complete.`
    : total < WHOLE_BPS
      ? `Total ${total} of ${WHOLE_BPS} basis points (${percent(total)}): ${left} left to assign. Splits must sum to exactly ${WHOLE_BPS}.`
      : `Total ${total} of ${WHOLE_BPS} basis points (${percent(total)}): ${-left} too many. Splits must sum to exactly ${WHOLE_BPS}.`
}

/** One row per creator and role; the running total against 10000 is shown (and announced) as you type. */
export function SplitsEditor({ splits, onChange, creators, errors }: SplitsEditorProps) {
  const id = useId()
  const total = splitTotal(splits)
  const left = WHOLE_BPS - total
  const update = (key: string, change: Partial<SplitDraft>) =>
    onChange(splits.map((split) => (split.key === key ? { ...split, ...change } : split)))
  const summaryError = errors.splits
  return (
    <fieldset className="splits" aria-describedby={`${id}-total`}>
      <legend>Splits</legend>
      <p className="field-hint">
        Who is paid from this entry&apos;s revenue, in basis points: 10000 is 100%, 2500 is 25%.
      </p>
      {splits.map((split, index) => (
        <SplitRow
          key={split.key}
          idPrefix={`${id}-${split.key}`}
          split={split}
          index={index}
          creators={creators}
          errors={errors}
          onUpdate={(change) => update(split.key, change)}
          removable={splits.length > 1}
          onRemove={() => onChange(splits.filter((other) => other.key !== split.key))}
        />
      ))}
      <Button onClick={() => onChange([...splits, newSplit('', 'artist', left > 0 ? String(left) : '')])}>
        Add split
      </Button>
      <p
        id={`${id}-total`}
        className={total === WHOLE_BPS ? 'splits-total splits-total-ok' : 'splits-total splits-total-off'}
        role="status"
      >
        {totalStatus(total)}
      </p>
      {summaryError ? <p className="field-error">{summaryError}</p> : null}
    </fieldset>
  )
}

interface SplitRowProps {
  /** Unique on the page: the row's controls and errors are named after it. */
  idPrefix: string
  split: SplitDraft
  index: number
  creators: readonly Creator[]
  errors: Record<string, string>
  onUpdate: (change: Partial<SplitDraft>) => void
  /** False for the only row: an entry has at least one split. */
  removable: boolean
  onRemove: () => void
}

/** One split: its creator, role and share, each labelled "Split n: …", and its remove button. */
function SplitRow({ idPrefix, split, index, creators, errors, onUpdate, removable, onRemove }: SplitRowProps) {
  const label = `Split ${index + 1}`
  const error = (field: string) => errors[`splits.${index}.${field}`]
  const rowError = errors[`splits.${index}`]
  return (
    <div className="split-row" role="group" aria-label={label}>
      <div className="field">
        <label htmlFor={`${idPrefix}-creator`}>{label}: creator</label>
        <select
          id={`${idPrefix}-creator`}
          value={split.creatorId}
          aria-invalid={error('creatorId') ? true : undefined}
          aria-describedby={error('creatorId') ? `${idPrefix}-creator-error` : undefined}
          onChange={(event) => onUpdate({ creatorId: event.target.value })}
        >
          <option value="">Choose a creator</option>
          {creators.map((creator) => (
            <option key={creator.id} value={creator.id}>
              {creator.name}
            </option>
          ))}
        </select>
        {error('creatorId') ? (
          <p className="field-error" id={`${idPrefix}-creator-error`}>
            {error('creatorId')}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-role`}>{label}: role</label>
        <select
          id={`${idPrefix}-role`}
          value={split.role}
          onChange={(event) => onUpdate({ role: event.target.value as Split['role'] })}
        >
          {CREATOR_ROLES.map((role) => (
            <option key={role} value={role}>
              {roleLabel(role)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-share`}>{label}: share (basis points)</label>
        <input
          id={`${idPrefix}-share`}
          inputMode="numeric"
          pattern="[0-9]*"
          value={split.shareBps}
          aria-invalid={error('shareBps') ? true : undefined}
          aria-describedby={error('shareBps') ? `${idPrefix}-share-error` : undefined}
          onChange={(event) => onUpdate({ shareBps: event.target.value })}
        />
        {error('shareBps') ? (
          <p className="field-error" id={`${idPrefix}-share-error`}>
            {error('shareBps')}
          </p>
        ) : null}
      </div>
      <Button className="split-remove" onClick={onRemove} disabled={!removable}>
        Remove split {index + 1}
      </Button>
      {rowError ? <p className="field-error split-row-error">{rowError}</p> : null}
    </div>
  )
}
