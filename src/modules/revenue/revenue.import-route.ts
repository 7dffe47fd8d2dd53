import { Transform, type Readable } from 'node:stream'
import { idempotent } from '../../platform/idempotent-route.js'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AppError } from '../../platform/errors.js'
import { responses } from '../../platform/routes.js'
import type { RevenueService } from './revenue.service.js'
import { ImportQuery, ImportReportSchema, StatementCsvSchema } from './revenue.schemas.js'

/** The largest statement an upload takes; the CLI (`oeuvre revenue import`) takes any size. */
export const IMPORT_BODY_LIMIT = 50 * 2 ** 20
const MEDIA_TYPE = 'text/csv'

const tooLarge = () =>
  new AppError(
    'payload_too_large',
    `A statement upload is limited to ${IMPORT_BODY_LIMIT / 2 ** 20} MiB; split the statement or import it with the CLI (oeuvre revenue import)`,
  )

/**
 * A text/csv body, handed to the handler unread so the import streams it. What the platform
 * looks at in a body sees only `toJSON`: the unsafe-text check finds no fields (the text is
 * checked line by line by the import), and an Idempotency-Key's fingerprint is the media type,
 * the declared length and the query (the bytes are never held, so never hashed).
 */
export class CsvUpload {
  readonly #stream: Readable
  readonly #fingerprint: unknown

  constructor(stream: Readable, fingerprint: unknown) {
    this.#stream = stream
    this.#fingerprint = fingerprint
  }

  get stream(): Readable {
    return this.#stream
  }

  toJSON(): unknown {
    return this.#fingerprint
  }
}

/** The body as it arrives, failing with 413 past the limit (the rest is left for the platform to drain). */
function limited(source: Readable, limit: number): Readable {
  let bytes = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length
      if (bytes > limit) callback(tooLarge())
      else callback(null, chunk)
    },
  })
  source.on('error', (error) => counted.destroy(error))
  source.pipe(counted)
  return counted
}

function parseCsvBody(request: FastifyRequest, payload: Readable): CsvUpload {
  const declared = Number(request.headers['content-length'] ?? Number.NaN)
  if (declared > IMPORT_BODY_LIMIT) throw tooLarge()
  return new CsvUpload(limited(payload, IMPORT_BODY_LIMIT), {
    mediaType: MEDIA_TYPE,
    length: Number.isFinite(declared) ? declared : null,
    query: request.query ?? {},
  })
}

/**
 * POST /api/revenue/imports: a DSP statement uploaded as text/csv, streamed into the same
 * import as the CLI's `revenue import`. In a plugin context of its own, so only this route
 * reads text/csv; JSON still parses here (its unsafe text is refused like anywhere else) and
 * is then refused with 415.
 */
export async function registerRevenueImportRoute(app: FastifyInstance, revenue: RevenueService): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(MEDIA_TYPE, (request, payload, done) => {
      try {
        done(null, parseCsvBody(request, payload))
      } catch (error) {
        done(error as Error, undefined)
      }
    })
    scope.addHook('preValidation', async (request) => {
      if (!(request.body instanceof CsvUpload))
        throw new AppError(
          'unsupported_media_type',
          `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported here; send the statement as text/csv`,
        )
    })
    const api = scope.withTypeProvider<TypeBoxTypeProvider>()
    api.post(
      '/api/revenue/imports',
      {
        schema: {
          tags: ['Session surface: revenue'],
          operationId: 'importRevenueStatement',
          summary:
            'Import a DSP statement (text/csv, up to 50 MiB, streamed): lines booked in batches as revenue.imported events, lines recorded already skipped, invalid ones rejected with their line numbers',
          querystring: ImportQuery,
          response: responses({ 200: ImportReportSchema }),
        },
        config: {
          auth: 'session',
          access: 'revenue:write',
          module: 'revenue',
          idempotent: true,
          streamedBody: {
            mediaType: MEDIA_TYPE,
            description: 'The statement, streamed as it arrives (up to 50 MiB)',
            schema: StatementCsvSchema,
          },
        },
      },
      // Many transactions, one per batch: the answer is stored as it is sent.
      idempotent(async (request) => {
        const upload = request.body as unknown as CsvUpload
        const { source } = request.query
        return revenue.importStatement({
          orgId: request.ctx.orgId,
          actorUserId: request.ctx.actor.userId,
          input: upload.stream,
          ...(source === undefined ? {} : { source }),
        })
      }),
    )
  })
}
