import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, call, ownerWithOrg, type OrgAccount, type TestApp } from './helpers.js'

const run = promisify(execFile)
const QUICKSTART = new URL('../docs/partner-quickstart.md', import.meta.url)

/** Every curl command of the document's shell blocks, continuation lines joined, in order. */
function curlCommands(markdown: string): string[] {
  const commands: string[] = []
  for (const block of markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const lines = block[1]!.replace(/\\\n\s*/g, ' ').split('\n')
    commands.push(...lines.map((line) => line.trim()).filter((line) => line.startsWith('curl ')))
  }
  return commands
}

let t: TestApp
let owner: OrgAccount
let baseUrl: string

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  // A real listening server on a random port: curl talks to it as a partner would.
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => t.close())

it('runs every curl command of docs/partner-quickstart.md against a real server', async () => {
  const commands = curlCommands(await readFile(QUICKSTART, 'utf8'))
  expect(commands.length).toBeGreaterThanOrEqual(6)
  expect(commands.some((command) => command.includes('/oauth/token') && command.includes('client_secret='))).toBe(true)
  expect(commands.some((command) => command.includes('/oauth/token') && command.includes('-u '))).toBe(true)
  expect(commands.some((command) => command.includes('cursor=$CURSOR'))).toBe(true)

  // The placeholders the document uses, filled in from the answers as a reader would.
  const env: Record<string, string> = { OEUVRE_URL: baseUrl, SESSION_TOKEN: owner.token }
  let firstPage: { data: { sequence: number }[] } | null = null
  let polled = false
  for (const command of commands) {
    if (command.includes('cursor=$CURSOR')) {
      // Something happens in the org between the first page and the next poll.
      const invite = await call(t.app, {
        method: 'POST',
        url: '/api/members/invitations',
        token: owner.token,
        body: { email: 'quickstart@example.com', role: 'viewer' },
      })
      expect(invite.statusCode).toBe(201)
    }
    const { stdout } = await run('bash', ['-c', command], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      timeout: 20_000,
    }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
      throw new Error(`"${command}" failed (exit ${error.code}): ${error.stderr ?? ''} ${error.stdout ?? ''}`)
    })
    const body = JSON.parse(stdout)
    if (body.secret) Object.assign(env, { CLIENT_ID: body.id, CLIENT_SECRET: body.secret, ORG_ID: body.orgId })
    if (body.access_token) {
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
      env.ACCESS_TOKEN = body.access_token
    }
    if (body.pagination && command.includes('/events')) {
      expect(typeof body.pagination.cursor).toBe('string')
      if (command.includes('cursor=$CURSOR')) {
        expect(body.data.map((event: { action: string }) => event.action)).toEqual(['member.invited'])
        expect(body.data[0].sequence).toBe(firstPage!.data.length + 1)
        polled = true
      } else {
        firstPage = body
        expect(body.data.length).toBeGreaterThan(0)
      }
      env.CURSOR = body.pagination.cursor
    }
  }
  expect(env.CLIENT_ID).toMatch(/^cli_/)
  expect(firstPage).not.toBeNull()
  expect(polled).toBe(true)
})
