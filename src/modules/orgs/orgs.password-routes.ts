import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { NoContent, responses } from '../../platform/routes.js'
import type { PasswordResets } from './orgs.password-reset.js'
import { Email } from './orgs.schemas.js'

const ResetRequestBody = component(
  'PasswordResetRequest',
  Type.Object({ email: Email }, { additionalProperties: false }),
)
const ResetAccepted = component('PasswordResetAccepted', Type.Object({ message: Type.String() }))
const ResetConfirmBody = component(
  'PasswordResetConfirmRequest',
  Type.Object(
    {
      token: Type.String({ minLength: 1, maxLength: 200, description: 'From the link in the email' }),
      password: Type.String({ minLength: 10, maxLength: 200, description: 'The new password: at least 10 characters' }),
    },
    { additionalProperties: false },
  ),
)

/** The same answer for every email: whether an account exists is not told. */
const ACCEPTED = {
  message:
    'If an account exists for this email, a link to reset its password is on its way. It works once, for 60 minutes.',
}

const tags = ['Session surface: account and orgs']

/** "Forgot password?": a link by email, then a new password with it. */
export function registerPasswordResetRoutes(app: FastifyInstance, resets: PasswordResets): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.post(
    '/api/auth/password-reset',
    {
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary:
          'Email a single-use link to reset the password (202, the same answer whether or not the account exists)',
        body: ResetRequestBody,
        response: responses({ 202: ResetAccepted }, [400, 429]),
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      await resets.request(request.body.email, request.ip)
      return reply.code(202).send(ACCEPTED)
    },
  )
  api.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        tags,
        operationId: 'confirmPasswordReset',
        summary: 'Set a new password with the link’s token, once: every session ends, and an email says so',
        body: ResetConfirmBody,
        response: responses({ 204: NoContent }, [400]),
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      await resets.confirm(request.body.token, request.body.password)
      return reply.code(204).send()
    },
  )
}
