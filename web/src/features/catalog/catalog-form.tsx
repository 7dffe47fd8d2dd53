import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, Loading, SelectField, TextField } from '../../ui'
import { useCreatorChoices } from '../creators/creators-api'
import { CATALOG_KINDS, KIND_LABELS, type CatalogEntry, type CatalogKind, type CreateCatalogEntry } from './catalog-api'
import { newSplit, splitLabel, SplitsEditor, type SplitDraft } from './splits-editor'

interface Draft {
  kind: CatalogKind
  title: string
  versionTitle: string
  displayArtist: string
  identifier: string
  releaseDate: string
  territories: string
  workId: string
  splits: SplitDraft[]
}

const IDENTIFIER = {
  work: { key: 'iswc', label: 'ISWC', hint: 'T-DDD.DDD.DDD-C, for example T-034.524.680-1' },
  recording: { key: 'isrc', label: 'ISRC', hint: 'CC-XXX-YY-NNNNN, for example NL-A1X-26-00001' },
  release: { key: 'upc', label: 'UPC / EAN', hint: '12 to 14 digits with a valid check digit' },
} as const

function draftOf(entry: CatalogEntry | undefined): Draft {
  if (!entry)
    return {
      kind: 'recording',
      title: '',
      versionTitle: '',
      displayArtist: '',
      identifier: '',
      releaseDate: '',
      territories: 'WORLD',
      workId: '',
      splits: [newSplit('', 'artist', '10000')],
    }
  return {
    kind: entry.kind,
    title: entry.title,
    versionTitle: entry.versionTitle ?? '',
    displayArtist: entry.displayArtist ?? '',
    identifier: entry.identifiers[IDENTIFIER[entry.kind].key] ?? '',
    releaseDate: entry.releaseDate ?? '',
    territories: entry.territories.join(', '),
    workId: entry.workId ?? '',
    splits: entry.splits.map((split) => newSplit(split.creatorId, split.role, String(split.shareBps))),
  }
}

/** The form's fields by the API's param, for its messages (the identifier's label follows the kind). */
const labelsFor =
  (identifier: string) =>
  (param: string): string | undefined =>
    splitLabel(param) ??
    {
      kind: 'Kind',
      title: 'Title',
      versionTitle: 'Version',
      displayArtist: 'Display artist',
      identifiers: identifier,
      'identifiers.isrc': identifier,
      'identifiers.iswc': identifier,
      'identifiers.upc': identifier,
      releaseDate: 'Release date',
      territories: 'Territories',
      workId: 'Underlying work',
    }[param]

/** What the API receives: empty optional fields are left out, and the rules are the API's to check. */
function requestOf(draft: Draft, supersedes: string | undefined): CreateCatalogEntry {
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim())
  const identifier = optional(draft.identifier)
  const body: CreateCatalogEntry = {
    kind: draft.kind,
    title: draft.title.trim(),
    splits: draft.splits.map((split) => ({
      creatorId: split.creatorId,
      role: split.role,
      // Not a whole number: sent as typed, and the API names the field.
      shareBps: /^\d+$/.test(split.shareBps.trim()) ? Number(split.shareBps) : (split.shareBps as unknown as number),
    })),
    territories: draft.territories
      .split(/[\s,]+/)
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
  }
  const versionTitle = optional(draft.versionTitle)
  const displayArtist = optional(draft.displayArtist)
  const releaseDate = optional(draft.releaseDate)
  const workId = draft.kind === 'recording' ? optional(draft.workId) : undefined
  if (versionTitle) body.versionTitle = versionTitle
  if (displayArtist) body.displayArtist = displayArtist
  if (releaseDate) body.releaseDate = releaseDate
  if (workId) body.workId = workId
  if (identifier) body.identifiers = { [IDENTIFIER[draft.kind].key]: identifier }
  if (supersedes) body.supersedes = supersedes
  return body
}

interface CatalogFormProps {
  /** The entry being corrected: the form starts from it and the new entry supersedes it. */
  corrects?: CatalogEntry
  submitLabel: string
  busy: boolean
  error: unknown
  onSubmit: (request: CreateCatalogEntry) => void
}

export function CatalogForm({ corrects, submitLabel, busy, error, onSubmit }: CatalogFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(corrects))
  const creators = useCreatorChoices()
  const identifier = IDENTIFIER[draft.kind]
  const { fields, general } = formErrors(error, labelsFor(identifier.label))
  const set: SetDraft = (key) => (value) => setDraft((current) => ({ ...current, [key]: value }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit(requestOf(draft, corrects?.id))
  }
  return (
    <form onSubmit={submit} noValidate className="form">
      <FormError message={general} />
      <EntryFields draft={draft} set={set} fields={fields} />
      <IdentificationFields draft={draft} set={set} fields={fields} />
      {creators.isPending ? (
        <Loading label="Loading creators…" />
      ) : (
        <SplitsEditor splits={draft.splits} onChange={set('splits')} creators={creators.data ?? []} errors={fields} />
      )}
      {creators.data && creators.data.length === 0 ? (
        <p className="muted">This org has no creators yet: create one first, then split the entry to them.</p>
      ) : null}
      <Button type="submit" variant="primary" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  )
}

/** Changes one field of the draft. */
type SetDraft = <K extends keyof Draft>(key: K) => (value: Draft[K]) => void

interface FieldGroupProps {
  draft: Draft
  set: SetDraft
  /** The API's messages by the field's param. */
  fields: Record<string, string>
}

/** What the entry is: its kind, title, version and artist. */
function EntryFields({ draft, set, fields }: FieldGroupProps) {
  return (
    <>
      <SelectField
        label="Kind"
        value={draft.kind}
        onChange={(event) => set('kind')(event.target.value as CatalogKind)}
        options={CATALOG_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
        error={fields.kind}
      />
      <TextField
        label="Title"
        value={draft.title}
        onChange={(event) => set('title')(event.target.value)}
        required
        maxLength={300}
        error={fields.title}
      />
      <div className="form-row">
        <TextField
          label="Version"
          value={draft.versionTitle}
          onChange={(event) => set('versionTitle')(event.target.value)}
          hint="Optional, for example Radio Edit"
          error={fields.versionTitle}
        />
        <TextField
          label="Display artist"
          value={draft.displayArtist}
          onChange={(event) => set('displayArtist')(event.target.value)}
          error={fields.displayArtist}
        />
      </div>
    </>
  )
}

/** How the entry is identified and where it applies: its kind's identifier, release date, territories, work. */
function IdentificationFields({ draft, set, fields }: FieldGroupProps) {
  const identifier = IDENTIFIER[draft.kind]
  return (
    <>
      <div className="form-row">
        <TextField
          label={identifier.label}
          value={draft.identifier}
          onChange={(event) => set('identifier')(event.target.value)}
          hint={identifier.hint}
          error={fields[`identifiers.${identifier.key}`] ?? fields.identifiers}
        />
        <TextField
          label="Release date"
          type="date"
          value={draft.releaseDate}
          onChange={(event) => set('releaseDate')(event.target.value)}
          error={fields.releaseDate}
        />
      </div>
      <TextField
        label="Territories"
        value={draft.territories}
        onChange={(event) => set('territories')(event.target.value)}
        hint="ISO country codes separated by commas (NL, DE), or WORLD"
        error={fields.territories}
      />
      {draft.kind === 'recording' ? (
        <TextField
          label="Underlying work"
          value={draft.workId}
          onChange={(event) => set('workId')(event.target.value)}
          hint="Optional: the catalog id (cat_…) of the work this recording performs"
          error={fields.workId}
        />
      ) : null}
    </>
  )
}
