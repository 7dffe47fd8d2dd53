import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { call } from './helpers.js'

/** Test data for the record families, created over HTTP as a user would. */

type Json = Record<string, unknown>

async function created(app: FastifyInstance, url: string, token: string, body: Json): Promise<Json & { id: string }> {
  const response = await call(app, { method: 'POST', url, token, body })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

export function creatorBody(overrides: Json = {}): Json {
  return { name: 'Ada Lovelace', kind: 'person', roles: ['composer'], payoutCurrency: 'EUR', ...overrides }
}

export function createCreator(
  app: FastifyInstance,
  token: string,
  overrides: Json = {},
): Promise<Json & { id: string }> {
  return created(app, '/api/creators', token, creatorBody(overrides))
}

export function createEntry(app: FastifyInstance, token: string, body: Json): Promise<Json & { id: string }> {
  return created(app, '/api/catalog', token, { kind: 'work', title: 'A Song', ...body })
}

/** A work split among the given creators (basis points in the same order). */
export function createWork(
  app: FastifyInstance,
  token: string,
  split: [string, number][],
  extra: Json = {},
): Promise<Json & { id: string }> {
  return createEntry(app, token, {
    kind: 'work',
    title: 'A Song',
    splits: split.map(([creatorId, shareBps]) => ({ creatorId, role: 'composer', shareBps })),
    ...extra,
  })
}

export function revenueBody(catalogId: string, overrides: Json = {}): Json {
  return {
    catalogId,
    source: 'Spotify',
    type: 'stream',
    periodStart: '2026-09-01',
    periodEnd: '2026-09-30',
    territory: 'DE',
    units: 1000,
    amount: '10.00',
    currency: 'EUR',
    ...overrides,
  }
}

export function createRevenue(
  app: FastifyInstance,
  token: string,
  catalogId: string,
  overrides: Json = {},
): Promise<Json & { id: string }> {
  return created(app, '/api/revenue', token, revenueBody(catalogId, overrides))
}

export function eventBody(overrides: Json = {}): Json {
  return {
    name: 'Summer Night',
    venue: { name: 'Columbiahalle', city: 'Berlin', country: 'DE' },
    startsAt: '2027-06-01T18:00:00.000Z',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    capacity: 500,
    ticketTypes: [
      { name: 'Standing', price: '39.00', quantity: 400 },
      { name: 'Balcony', price: '59.50', quantity: 100 },
    ],
    ...overrides,
  }
}
