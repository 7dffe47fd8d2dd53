import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { call, uniqueEmail } from './helpers.js'

export interface SignedUpPartner {
  token: string
  userId: string
  email: string
  orgId: string
  partnerId: string
  client: { id: string; secret: string; scopes: string[]; tier: string }
}

/** A partner signed up through /api/partners/signup. */
export async function signUpPartner(
  app: FastifyInstance,
  tier: 'api_partner' | 'white_label' | 'platform_integrator' = 'api_partner',
): Promise<SignedUpPartner> {
  const email = uniqueEmail('partner')
  const response = await call(app, {
    method: 'POST',
    url: '/api/partners/signup',
    body: { email, password: 'correct horse battery', name: 'Ada Partner', company: 'Acme Royalties', tier },
  })
  expect(response.statusCode, response.body).toBe(201)
  const body = response.json()
  return {
    token: body.token,
    userId: body.user.id,
    email,
    orgId: body.activeOrgId,
    partnerId: body.partner.id,
    client: body.sandboxClient,
  }
}
