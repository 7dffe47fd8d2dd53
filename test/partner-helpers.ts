import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { call, ownerWithOrg, type OrgAccount } from './helpers.js'

export interface ClientCredentials {
  id: string
  secret: string
  userId: string
  orgId: string
}

/** Creates an OAuth client in the owner's active org through /api/clients. */
export async function createClient(
  app: FastifyInstance,
  owner: OrgAccount,
  scopes: readonly string[],
  name = 'Integration',
): Promise<ClientCredentials> {
  const response = await call(app, { method: 'POST', url: '/api/clients', token: owner.token, body: { name, scopes } })
  expect(response.statusCode, response.body).toBe(201)
  const body = response.json()
  return { id: body.id, secret: body.secret, userId: body.userId, orgId: owner.orgId }
}

/** A form-encoded token request; `basic` moves the credentials into an Authorization header. */
export function requestToken(
  app: FastifyInstance,
  fields: Record<string, string>,
  options: { basic?: { id: string; secret: string }; remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    ...(options.headers ?? {}),
  }
  if (options.basic) {
    const pair = `${encodeURIComponent(options.basic.id)}:${encodeURIComponent(options.basic.secret)}`
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`
  }
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers,
    payload: new URLSearchParams(fields).toString(),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  })
}

/** An access token for the client with the given scopes (body credentials). */
export async function accessToken(app: FastifyInstance, client: ClientCredentials, scope: string): Promise<string> {
  const response = await requestToken(app, {
    grant_type: 'client_credentials',
    client_id: client.id,
    client_secret: client.secret,
    scope,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().access_token
}

/** A sandbox org with an owner and a client holding `scopes`, plus a token for all of them. */
export async function sandboxPartner(
  app: FastifyInstance,
  scopes: readonly string[] = ['events:read', 'members:read'],
) {
  const owner = await ownerWithOrg(app, { environment: 'sandbox' })
  const client = await createClient(app, owner, scopes)
  const token = await accessToken(app, client, scopes.join(' '))
  return { owner, client, token }
}

export function expectOAuthError(response: LightMyRequestResponse, status: number, error: string): void {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  expect(response.headers['cache-control']).toBe('no-store')
  const body = response.json()
  expect(body.error).toBe(error)
  expect(typeof body.error_description).toBe('string')
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description'])
}
