import { createLazyRoute } from '@tanstack/react-router'
import { useId, useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, Field, FormError, PageHeader, Table, TextField, type Column } from '../../ui'
import { useSession } from '../../app/session'
import { useImportStatement, type ImportReport, type UploadProgress } from './revenue-import-api'

const COLUMNS = 'isrc, territory, period_start, period_end, units, amount, currency, statement_ref, line_ref'

const LABELS = { source: 'Source' }

interface ReportLine {
  line: number
  outcome: 'Skipped' | 'Rejected'
  reference: string
  reason: string
}

/** Skipped and rejected lines in one table, by line number. */
function reportLines(report: ImportReport): ReportLine[] {
  const skipped = report.skippedLines.map((line): ReportLine => ({
    line: line.line,
    outcome: 'Skipped',
    reference: `${line.statementRef} / ${line.lineRef}`,
    reason: 'Booked already (by an earlier import, or earlier in this file)',
  }))
  const rejected = report.rejections.map((line): ReportLine => ({
    line: line.line,
    outcome: 'Rejected',
    reference: '—',
    reason: line.reason,
  }))
  return [...skipped, ...rejected].sort((a, b) => a.line - b.line)
}

const LINE_COLUMNS: readonly Column<ReportLine>[] = [
  { header: 'Line', cell: (row) => row.line, numeric: true },
  { header: 'Outcome', cell: (row) => row.outcome },
  { header: 'Reference', cell: (row) => row.reference },
  { header: 'Reason', cell: (row) => row.reason },
]

function Report({ report }: { report: ImportReport }) {
  const lines = reportLines(report)
  const unlisted = report.skipped - report.skippedLines.length + (report.rejected - report.rejections.length)
  return (
    <section aria-labelledby="import-report">
      <h2 id="import-report">Report</h2>
      <dl className="details">
        <dt>Lines read</dt>
        <dd>{report.lines}</dd>
        <dt>Imported</dt>
        <dd>{report.imported}</dd>
        <dt>Skipped</dt>
        <dd>{report.skipped}</dd>
        <dt>Rejected</dt>
        <dd>{report.rejected}</dd>
        <dt>Batches</dt>
        <dd>{report.batches.length ? report.batches.map((batch) => batch.batchId).join(', ') : '—'}</dd>
      </dl>
      {lines.length ? (
        <>
          <Table
            caption="Skipped and rejected lines"
            columns={LINE_COLUMNS}
            rows={lines}
            rowKey={(row) => `${row.line}`}
          />
          {unlisted > 0 ? (
            <p>{unlisted} more lines are counted above but not listed (the first 100 of each are).</p>
          ) : null}
        </>
      ) : (
        <p>Every line was imported.</p>
      )}
    </section>
  )
}

function ImportPage() {
  const { can } = useSession()
  const progressId = useId()
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const [missingFile, setMissingFile] = useState<string | undefined>(undefined)
  const upload = useImportStatement(setProgress)
  const { fields, general } = formErrors(upload.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const file = form.get('statement')
    if (!(file instanceof File) || file.size === 0) {
      setMissingFile('Choose a statement file (CSV)')
      return
    }
    setMissingFile(undefined)
    upload.mutate({ file, source: String(form.get('source') ?? '').trim() })
  }
  const sentAll = progress !== null && progress.sent >= progress.total
  return (
    <>
      <PageHeader title="Import a statement">
        <p>
          A DSP statement as CSV with the columns {COLUMNS} (type and source optional). Lines are matched to the catalog
          by ISRC and allocated by their splits; importing a file again skips the lines already booked.
        </p>
      </PageHeader>
      {can('revenue:write') ? (
        <form onSubmit={submit} noValidate className="form">
          <FormError message={general} />
          <Field label="Statement file (CSV)" error={missingFile} hint="Up to 50 MiB">
            {(control) => <input {...control} type="file" name="statement" accept=".csv,text/csv" />}
          </Field>
          <TextField
            label={LABELS.source}
            name="source"
            maxLength={200}
            hint="Where the money comes from, such as Spotify; leave empty when the file has a source column"
            error={fields.source}
          />
          <Button type="submit" variant="primary" busy={upload.isPending}>
            Import
          </Button>
          {upload.isPending && progress ? (
            <div className="field">
              <label htmlFor={progressId}>Upload progress</label>
              <progress id={progressId} max={Math.max(progress.total, 1)} value={progress.sent} />
              <p className="field-hint" role="status">
                {sentAll
                  ? 'Sent; booking the last lines…'
                  : `${Math.floor((100 * progress.sent) / Math.max(progress.total, 1))}% sent and read`}
              </p>
            </div>
          ) : null}
        </form>
      ) : (
        <p className="notice" role="note">
          Your role cannot import revenue: ask an owner, admin or finance member.
        </p>
      )}
      {upload.data ? <Report report={upload.data} /> : null}
    </>
  )
}

export const route = createLazyRoute('/app/revenue/import')({ component: ImportPage })
