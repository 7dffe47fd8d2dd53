import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, call, expectProblem, type TestApp } from './helpers.js'

/** `oeuvre serve` serves the built web app at `/`; the service's own paths keep their answers. */
let t: TestApp
let root: string
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f9a.js"></script></head></html>'

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-web-'))
  await mkdir(path.join(root, 'assets'))
  await writeFile(path.join(root, 'index.html'), INDEX)
  await writeFile(path.join(root, 'assets', 'app-3f9a.js'), 'console.log("app")')
  await writeFile(path.join(root, 'assets', 'app-3f9a.js.gz'), gzipSync('console.log("app")'))
  await writeFile(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  await writeFile(path.join(root, '.build-secret'), 'not for serving')
  t = await buildTestApp({ webRoot: root })
})
afterAll(async () => {
  await t.close()
  await rm(root, { recursive: true, force: true })
})

describe('the web app', () => {
  it('answers / and every app path with index.html, revalidated, under a content security policy', async () => {
    for (const url of ['/', '/catalog', '/catalog/cat_01JZ0000000000000000000000?kind=work', '/index.html']) {
      const response = await call(t.app, { url })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.headers['content-security-policy']).toContain("script-src 'self'")
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(response.body).toBe(INDEX)
    }
  })

  it('serves hashed assets for a year, immutable, and other files revalidated', async () => {
    const asset = await call(t.app, { url: '/assets/app-3f9a.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['content-type']).toMatch(/javascript/)
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.etag).toBeDefined()
    const icon = await call(t.app, { url: '/favicon.svg' })
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['cache-control']).toBe('no-cache')
    const compressed = await t.app.inject({ url: '/assets/app-3f9a.js', headers: { 'accept-encoding': 'gzip' } })
    expect(compressed.headers['content-encoding']).toBe('gzip')
    expect(compressed.headers.vary).toMatch(/accept-encoding/i)
    expect(gunzipSync(compressed.rawPayload).toString()).toBe('console.log("app")')
    const revalidated = await call(t.app, {
      url: '/assets/app-3f9a.js',
      headers: { 'if-none-match': asset.headers.etag as string },
    })
    expect(revalidated.statusCode).toBe(304)
  })

  it('answers a missing asset 404, never with the page, and serves no dot-file or file outside the root', async () => {
    expectProblem(await call(t.app, { url: '/assets/gone-0000.js' }), 404, 'resource_missing')
    const hidden = await call(t.app, { url: '/.build-secret' })
    expect(hidden.body).not.toContain('not for serving')
    expect((await call(t.app, { url: '/catalog/%E0%A4%A' })).statusCode).toBeLessThan(500)
    for (const url of ['/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fpackage.json']) {
      const response = await call(t.app, { url })
      expect(response.body, url).not.toContain('root:')
      expect(response.body, url).not.toContain('"name"')
    }
  })

  it('keeps problem+json 404s and 405s on the service paths', async () => {
    expectProblem(await call(t.app, { url: '/api/nothing-here' }), 404, 'resource_missing')
    expectProblem(await call(t.app, { url: '/v1/nothing-here' }), 404, 'resource_missing')
    expectProblem(await call(t.app, { url: '/api' }), 404, 'resource_missing')
    expectProblem(await call(t.app, { url: '/.well-known/nothing-here' }), 404, 'resource_missing')
    expectProblem(await call(t.app, { url: '/api/auth/login' }), 405, 'method_not_allowed')
    expectProblem(await call(t.app, { method: 'POST', url: '/catalog', body: {} }), 404, 'resource_missing')
    // Unknown service paths are rate limited as every service request; the app's files are not.
    expect((await call(t.app, { url: '/v1/orgs/nowhere' })).headers['x-ratelimit-limit']).toBeDefined()
    expect((await call(t.app, { url: '/catalog' })).headers['x-ratelimit-limit']).toBeUndefined()
    expect((await call(t.app, { url: '/assets/app-3f9a.js' })).headers['x-ratelimit-limit']).toBeUndefined()
    const docs = await call(t.app, { url: '/openapi.json' })
    expect(docs.json().openapi).toBe('3.1.0')
  })

  it('says how to build the app when it is not built', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-web-empty-'))
    const bare = await buildTestApp({ webRoot: empty, db: t.db })
    try {
      const response = await call(bare.app, { url: '/catalog' })
      expect(response.statusCode).toBe(503)
      expect(response.body).toContain('npm run web:build')
    } finally {
      await bare.close()
      await rm(empty, { recursive: true, force: true })
    }
  })
})
