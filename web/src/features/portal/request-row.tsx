import { CopyableId, DateTime } from '../../ui'
import './request-row.css'

export interface RequestRowData {
  at: string
  method: string
  path: string
  status: number
  latencyMs: number
  requestId: string
  address: string
  errorCode: string | null
  errorDetail: string | null
}

/** The answer's class, for its colour (the number is always written too). */
const statusTone = (status: number) => (status >= 500 ? 'server' : status >= 400 ? 'refused' : 'ok')

/**
 * One request of the log: the line (time, method, route, status in its colour, latency) opens to why
 * a refused call was refused (the code and detail its answer gave), the request ID to copy and the address.
 */
export function RequestRow({ row }: { row: RequestRowData }) {
  const tone = statusTone(row.status)
  return (
    <li className="request-row">
      <details>
        <summary>
          <DateTime value={row.at} /> · {row.method} <code>{row.path}</code> ·{' '}
          <span className={`request-status request-status-${tone}`}>{row.status}</span> · {row.latencyMs} ms
          {row.errorCode ? <> · {row.errorCode}</> : null}
        </summary>
        <dl className="details">
          {row.errorCode ? (
            <>
              <dt>Why it was refused</dt>
              <dd>
                <code>{row.errorCode}</code>
                {row.errorDetail ? <p className="wrap-anywhere">{row.errorDetail}</p> : null}
              </dd>
            </>
          ) : null}
          <dt>Request ID</dt>
          <dd>
            <CopyableId label="request ID" value={row.requestId} of={`${row.method} ${row.path}`} />
          </dd>
          <dt>Address</dt>
          <dd>{row.address}</dd>
        </dl>
      </details>
    </li>
  )
}
