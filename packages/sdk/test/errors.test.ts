import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  Oeuvre,
  OeuvreError,
  PermissionError,
  ServerError,
  ValidationError,
  WrongRegionError,
} from '@oeuvre/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { credentials, sandboxPartner, startService, type LiveService, type Partner } from './service.js'

let service: LiveService
let partner: Partner
let oeuvre: Oeuvre
/** The X-Request-Id of every answer, in order. */
const requestIds: string[] = []

beforeAll(async () => {
  service = await startService({ env: { REGION: 'eu-west', REGION_URL_US_EAST: 'https://us.oeuvre.example' } })
  partner = await sandboxPartner(service)
  const fetcher: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    requestIds.push(response.headers.get('x-request-id') ?? '')
    return response
  }
  oeuvre = new Oeuvre({ ...credentials(service, partner), fetch: fetcher })
})
afterAll(() => service.close())

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error as OeuvreError,
  )

describe('typed errors from problem+json', () => {
  it('404 for another org’s record: NotFoundError with status, code, requestId and the problem', async () => {
    const stranger = await sandboxPartner(service)
    const theirs = await new Oeuvre(credentials(service, stranger)).creators.create(stranger.orgId, {
      name: 'Theirs',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    const failure = await failureOf(oeuvre.creators.get(partner.orgId, theirs.id))
    expect(failure).toBeInstanceOf(NotFoundError)
    expect(failure).toBeInstanceOf(OeuvreError)
    expect(failure.name).toBe('NotFoundError')
    expect(failure.status).toBe(404)
    expect(failure.code).toBe('resource_missing')
    expect(failure.requestId).toMatch(/^req_/)
    expect(failure.requestId).toBe(requestIds.at(-1))
    expect(failure.problem).toMatchObject({ status: 404, code: 'resource_missing', requestId: failure.requestId })
    expect(failure.message).toContain(failure.requestId)
    // Their org's path itself is as invisible.
    await expect(oeuvre.creators.list(stranger.orgId)).rejects.toBeInstanceOf(NotFoundError)
  })

  it('400: ValidationError naming the parameter', async () => {
    const failure = await failureOf(
      oeuvre.creators.create(partner.orgId, { kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' } as never),
    )
    expect(failure).toBeInstanceOf(ValidationError)
    expect(failure).toMatchObject({ status: 400, code: 'parameter_missing', param: 'name' })
    expect(failure.problem?.errors).toContainEqual(expect.objectContaining({ param: 'name' }))
    await expect(oeuvre.events.list(partner.orgId, { cursor: 'not-a-cursor' })).rejects.toMatchObject({
      name: 'ValidationError',
      code: 'invalid_cursor',
    })
  })

  it('422 for a business rule: ValidationError with the rule’s code', async () => {
    const creator = await oeuvre.creators.create(partner.orgId, {
      name: 'Half',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    const failure = await failureOf(
      oeuvre.catalog.create(partner.orgId, {
        kind: 'work',
        title: 'Half a song',
        splits: [{ creatorId: creator.id, role: 'composer', shareBps: 5_000 }],
      }),
    )
    expect(failure).toBeInstanceOf(ValidationError)
    expect(failure).toMatchObject({ status: 422, code: 'splits_invalid', param: 'splits' })
  })

  it('403 for a missing scope: PermissionError naming the scope', async () => {
    const reader = await sandboxPartner(service, ['catalog:read'])
    const failure = await failureOf(
      new Oeuvre(credentials(service, reader)).catalog.create(reader.orgId, { kind: 'work', title: 'x', splits: [] }),
    )
    expect(failure).toBeInstanceOf(PermissionError)
    expect(failure).toMatchObject({ status: 403, code: 'insufficient_scope', problem: { scope: 'catalog:write' } })
  })

  it('401 for a token the service does not know: AuthenticationError', async () => {
    const forged = new Oeuvre({ baseUrl: service.baseUrl, accessToken: 'oat_forged' })
    const failure = await failureOf(forged.members.list(partner.orgId))
    expect(failure).toBeInstanceOf(AuthenticationError)
    expect(failure).toMatchObject({ status: 401, code: 'invalid_token' })
  })

  it('421 for another region’s org: WrongRegionError with the region and its deployment’s baseUrl', async () => {
    const usOrg = 'org_11JD2YB6X8Q0W3M5N7P9R1T3V5'
    const failure = await failureOf(oeuvre.catalog.list(usOrg))
    expect(failure).toBeInstanceOf(WrongRegionError)
    expect(failure).toMatchObject({
      status: 421,
      code: 'wrong_region',
      region: 'us-east',
      baseUrl: 'https://us.oeuvre.example',
      requestId: expect.stringMatching(/^req_/),
    })
  })

  it('421 from the token endpoint for another region’s credentials: WrongRegionError, not retried', async () => {
    const calls: string[] = []
    const client = new Oeuvre({
      baseUrl: service.baseUrl,
      clientId: 'cli_11JD2YB6X8Q0W3M5N7P9R1T3V5',
      clientSecret: 'cs_test_use_4fJq0m3Yl2mXo3r8oPqk9Vb7cT1s2Xw5nDh6Gu0Ax7Qa',
      scopes: ['events:read'],
      fetch: (input, init) => (calls.push(new URL(String(input)).pathname), fetch(input, init)),
    })
    expect(client.region).toBe('us-east')
    const failure = await failureOf(client.events.list(partner.orgId))
    expect(failure).toBeInstanceOf(WrongRegionError)
    expect(failure).toMatchObject({
      status: 421,
      code: 'wrong_region',
      region: 'us-east',
      baseUrl: 'https://us.oeuvre.example',
    })
    expect(calls).toEqual(['/oauth/token'])
  })

  it('409 for a conflict with the record’s state: ConflictError', async () => {
    const creator = await oeuvre.creators.create(partner.orgId, {
      name: 'Whole',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    const splits = [{ creatorId: creator.id, role: 'composer' as const, shareBps: 10_000 }]
    const original = await oeuvre.catalog.create(partner.orgId, { kind: 'work', title: 'Take 1', splits })
    await oeuvre.catalog.create(partner.orgId, { kind: 'work', title: 'Take 2', splits, supersedes: original.id })
    const failure = await failureOf(
      oeuvre.catalog.create(partner.orgId, { kind: 'work', title: 'Take 3', splits, supersedes: original.id }),
    )
    expect(failure).toBeInstanceOf(ConflictError)
    expect(failure).toMatchObject({ status: 409, code: 'conflict', param: 'supersedes' })
  })
})

describe('an error the service cannot be made to answer here', () => {
  /** A stand-in answering one fixed problem, as the contract documents it. */
  async function answering(status: number, body: object, headers: Record<string, string> = {}) {
    const server = createServer((_request, response) => {
      response.writeHead(status, {
        'content-type': 'application/problem+json',
        'x-request-id': 'req_standin',
        ...headers,
      })
      response.end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
  }

  it('a 500 after the retries: ServerError, the problem kept', async () => {
    const problem = {
      title: 'Internal error',
      status: 500,
      detail: 'x',
      code: 'internal_error',
      requestId: 'req_standin',
    }
    const standIn = await answering(500, problem)
    try {
      const client = new Oeuvre({
        baseUrl: standIn.url,
        accessToken: 'oat_x',
        clock: { now: () => 0, sleep: async () => {} },
      })
      const failure = await failureOf(client.evidence.getKeys())
      expect(failure).toBeInstanceOf(ServerError)
      expect(failure).toMatchObject({ status: 500, code: 'internal_error', problem })
    } finally {
      await standIn.close()
    }
  })
})
