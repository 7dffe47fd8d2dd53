import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../src/platform/errors.js'
import { buildTestApp, call, type TestApp } from './helpers.js'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('error type URIs', () => {
  it('answer every code with a page saying what it means and what to do', async () => {
    const codes = Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]
    for (const code of codes) {
      const response = await call(t.app, { url: `/docs/errors/${code}` })
      expect(response.statusCode, code).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.body).toContain(`<code>${code}</code>`)
      expect(response.body).toContain(`<h1>${ERROR_CODES[code].title}</h1>`)
      expect(response.body).toContain(`HTTP status <strong>${ERROR_CODES[code].status}</strong>`)
      expect(response.body).toContain('What to do')
    }
    const json = await call(t.app, { url: '/docs/errors/rate_limited', headers: { accept: 'application/json' } })
    expect(json.json()).toMatchObject({ code: 'rate_limited', status: 429, title: 'Too many requests' })
    expect(json.json().action).toMatch(/Retry-After/)
    const index = await call(t.app, { url: '/docs/errors' })
    for (const code of codes) expect(index.body).toContain(`/docs/errors/${code}`)
  })

  it('are the type of real problems, and resolve', async () => {
    const problem = await call(t.app, { url: '/api/me' })
    expect(problem.statusCode).toBe(401)
    const type = new URL(problem.json().type)
    expect(type.origin).toBe(t.config.publicUrl)
    const page = await call(t.app, { url: type.pathname })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<code>authentication_required</code>')
  })

  it('answer an unknown code with a 404 problem', async () => {
    const response = await call(t.app, { url: '/docs/errors/no_such_code' })
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(response.json().code).toBe('resource_missing')
  })

  it('leave the API reference at /docs working', async () => {
    const page = await call(t.app, { url: '/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('swagger')
  })
})
