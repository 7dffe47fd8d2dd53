import { ApiError, apiErrorOf, csrfHeader, watchRequest, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type ImportReport = Schemas['RevenueImportReport']

export interface UploadProgress {
  sent: number
  total: number
}

const IMPORT_PATH = '/api/revenue/imports'

/**
 * Uploads a statement to POST /api/revenue/imports with XMLHttpRequest, the one browser API that
 * reports an upload's progress. The service reads the file as it arrives and books it batch by
 * batch, so the bytes sent follow the import; the answer is the report.
 */
export function uploadStatement(
  file: File,
  options: { source: string; idempotencyKey: string; onProgress: (progress: UploadProgress) => void },
): Promise<ImportReport> {
  const url = new URL(IMPORT_PATH, window.location.origin)
  if (options.source) url.searchParams.set('source', options.source)
  const answered = watchRequest(new Request(url, { method: 'POST' }))
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.withCredentials = true
    request.setRequestHeader('content-type', 'text/csv')
    request.setRequestHeader('idempotency-key', options.idempotencyKey)
    for (const [name, value] of Object.entries(csrfHeader)) request.setRequestHeader(name, value)
    request.upload.onprogress = (event) =>
      options.onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size })
    request.onerror = () =>
      reject(
        new ApiError({
          type: 'about:blank',
          title: 'Upload failed',
          status: 0,
          detail:
            'The upload did not reach the service (connection lost); import the file again: lines booked are skipped',
          code: 'internal_error',
          requestId: '',
        }),
      )
    request.onload = () => {
      let body: unknown = null
      try {
        body = JSON.parse(request.responseText)
      } catch {
        body = null
      }
      const requestId = request.getResponseHeader('x-request-id')
      const response = new Response(request.responseText, {
        status: request.status,
        statusText: request.statusText,
        headers: { 'content-type': request.getResponseHeader('content-type') ?? 'application/json' },
      })
      void answered(response).finally(() => {
        if (request.status >= 200 && request.status < 300) resolve(body as ImportReport)
        else reject(apiErrorOf({ status: request.status, statusText: request.statusText, requestId }, body))
      })
    }
    request.send(file)
  })
}

/**
 * Uploads a statement (the import page). Each upload is a request of its own (importing a file
 * again is how a person checks that its lines are booked: they are skipped), so each gets a new
 * Idempotency-Key; the retry after signing in again sends the same one. The revenue, balances and
 * payouts are refetched.
 */
export function useImportStatement(onProgress: (progress: UploadProgress) => void) {
  return useWrite({
    request: ({ file, source }: { file: File; source: string }, headers) => {
      onProgress({ sent: 0, total: file.size })
      return uploadStatement(file, { source, idempotencyKey: headers['Idempotency-Key'], onProgress })
    },
    sameAs: () => ({ upload: crypto.getRandomValues(new Uint32Array(2)).join('.') }),
    invalidates: [['revenue'], ['payouts']],
  })
}
