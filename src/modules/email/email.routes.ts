import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import { responses } from '../../platform/routes.js'
import { COMMON_VARIABLES, EMAIL_KIND_SPECS, EMAIL_KINDS } from './email.kinds.js'
import { choosePreferences, preferencesOf } from './email.preferences.js'
import { EmailKindList, EmailPreferencesBody, EmailPreferencesSchema } from './email.schemas.js'

/** The kinds and their template variables (public, like the API reference), and each person's choices. */
export function registerEmailRoutes(app: FastifyInstance, deps: { db: Database; clock: Clock }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const kinds: EmailKindList = {
    data: EMAIL_KINDS.map((kind) => ({
      ...EMAIL_KIND_SPECS[kind],
      variables: [...COMMON_VARIABLES, ...EMAIL_KIND_SPECS[kind].variables],
    })),
  }
  api.get(
    '/api/email-kinds',
    {
      schema: {
        tags: ['Email'],
        operationId: 'listEmailKinds',
        summary: 'The emails the service sends, and the variables each kind’s templates may use',
        response: responses({ 200: EmailKindList }),
      },
      config: { auth: 'none' },
    },
    async () => kinds,
  )
  const me = (request: { identity: { userId: string } | null }) => request.identity!.userId
  api.get(
    '/api/account/email-preferences',
    {
      schema: {
        tags: ['Email'],
        operationId: 'getEmailPreferences',
        summary: 'Which non-security emails you receive (security emails always go)',
        response: responses({ 200: EmailPreferencesSchema }),
      },
      config: { auth: 'session', orgScoped: false },
    },
    (request) => preferencesOf(deps.db, me(request)),
  )
  api.put(
    '/api/account/email-preferences',
    {
      schema: {
        tags: ['Email'],
        operationId: 'setEmailPreferences',
        summary: 'Choose which non-security emails you receive; kinds left out keep their choice',
        body: EmailPreferencesBody,
        response: responses({ 200: EmailPreferencesSchema }, [400]),
      },
      config: { auth: 'session', orgScoped: false },
    },
    (request) => choosePreferences(deps.db, deps.clock, me(request), request.body),
  )
}
