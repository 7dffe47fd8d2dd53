import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DAY, MINUTE } from '../../platform/clock.js'
import { call, expectProblem, signup, uniqueEmail, type Account } from '../../../test/helpers.js'
import { buildMailTestApp, type MailTestApp } from '../../../test/smtp-helpers.js'

let t: MailTestApp
let address = 0

beforeAll(async () => {
  t = await buildMailTestApp()
})
afterAll(() => t.close())
beforeEach(() => t.receiver.clear())

/** Each request from an address of its own, unless one is given: the per-address limit is tested on its own. */
const requestReset = (email: string, from = `127.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/password-reset',
    remoteAddress: from,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email }),
  })
const confirm = (token: string, password: string) =>
  call(t.app, { method: 'POST', url: '/api/auth/password-reset/confirm', body: { token, password } })
const login = (email: string, password: string) =>
  call(t.app, { method: 'POST', url: '/api/auth/login', body: { email, password } })
/** The token of the last reset link emailed to `email`. */
function tokenFor(email: string): string {
  const text = t.receiver.to(email).at(-1)?.text ?? ''
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(text)?.[0]
  expect(link, `a reset link in: ${text}`).toBeDefined()
  return new URL(link!).searchParams.get('token')!
}

async function resetLinkFor(account: Account): Promise<string> {
  expect((await requestReset(account.email)).statusCode).toBe(202)
  await t.deliver()
  return tokenFor(account.email)
}

describe('password reset', () => {
  it('emails a link that sets a new password once: sessions end, the old password stops, a notice follows', async () => {
    const account = await signup(t.app, 'forgetful')
    const token = await resetLinkFor(account)
    const [email] = t.receiver.to(account.email)
    expect(email!.subject).toMatch(/reset/i)
    expect(email!.text).toContain('60 minutes')
    expect(token).toMatch(/^pwr_/)
    expect((await confirm(token, 'a brand new password')).statusCode).toBe(204)
    expectProblem(await call(t.app, { url: '/api/me', token: account.token }), 401, 'invalid_token')
    expectProblem(await login(account.email, 'correct horse battery'), 401, 'authentication_required')
    expect((await login(account.email, 'a brand new password')).statusCode).toBe(200)
    await t.deliver()
    expect(t.receiver.to(account.email).at(-1)!.subject).toMatch(/password was changed/i)
    // Once, not twice.
    const again = await confirm(token, 'yet another password')
    expectProblem(again, 400, 'parameter_invalid')
    expect(again.json().param).toBe('token')
    expect((await login(account.email, 'a brand new password')).statusCode).toBe(200)
  })

  it('answers an unknown email exactly as a known one, and emails nobody', async () => {
    const account = await signup(t.app, 'known')
    const nobody = uniqueEmail('nobody')
    const known = await requestReset(account.email)
    const unknown = await requestReset(nobody)
    expect(unknown.statusCode).toBe(202)
    expect(unknown.json()).toEqual(known.json())
    await t.deliver()
    expect(t.receiver.to(nobody)).toEqual([])
    expect(t.receiver.to(account.email)).toHaveLength(1)
  })

  it('takes as long for an unknown email as for a known one (medians of interleaved tries)', async () => {
    const account = await signup(t.app, 'timed')
    const known: number[] = []
    const unknown: number[] = []
    const timed = async (into: number[], email: string) => {
      const started = performance.now()
      expect((await requestReset(email)).statusCode).toBe(202)
      into.push(performance.now() - started)
    }
    // Three tries per email per hour: the known account's are spread over the hours.
    for (let i = 0; i < 9; i += 1) {
      if (i % 3 === 0) t.clock.advance(DAY)
      await timed(known, account.email)
      await timed(unknown, uniqueEmail('nobody'))
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const ratio = median(unknown) / median(known)
    // Both write the request and nothing else: whether the account exists is looked up later, by the worker.
    expect(
      ratio,
      `medians: unknown ${median(unknown).toFixed(2)} ms, known ${median(known).toFixed(2)} ms`,
    ).toBeGreaterThan(0.6)
    expect(ratio).toBeLessThan(1.6)
  }, 60_000)

  it('expires a link after 60 minutes, and a newer password ends the older links', async () => {
    const account = await signup(t.app, 'slow')
    const late = await resetLinkFor(account)
    t.clock.advance(60 * MINUTE)
    expectProblem(await confirm(late, 'a brand new password'), 400, 'parameter_invalid')
    const first = await resetLinkFor(account)
    const second = await resetLinkFor(account)
    expect(second).not.toBe(first)
    expect((await confirm(second, 'a brand new password')).statusCode).toBe(204)
    expectProblem(await confirm(first, 'another new password'), 400, 'parameter_invalid')
  })

  it('refuses a short new password with a clear error, using nothing', async () => {
    const account = await signup(t.app, 'short')
    const token = await resetLinkFor(account)
    const refused = await confirm(token, 'short')
    expectProblem(refused, 400, 'parameter_invalid')
    expect(refused.json().param).toBe('password')
    expect((await confirm(token, 'long enough now')).statusCode).toBe(204)
  })

  it('limits requests per email (3 an hour) and per address (10 an hour) with 429 and Retry-After', async () => {
    t.clock.advance(DAY)
    const email = uniqueEmail('limited')
    for (let i = 0; i < 3; i += 1) expect((await requestReset(email)).statusCode).toBe(202)
    const perEmail = await requestReset(email)
    expectProblem(perEmail, 429, 'rate_limited')
    expect(Number(perEmail.headers['retry-after'])).toBeGreaterThan(0)
    for (let i = 0; i < 10; i += 1) expect((await requestReset(uniqueEmail('many'), '127.8.0.1')).statusCode).toBe(202)
    expectProblem(await requestReset(uniqueEmail('many'), '127.8.0.1'), 429, 'rate_limited')
    t.clock.advance(DAY)
    expect((await requestReset(email)).statusCode).toBe(202)
  })
})
