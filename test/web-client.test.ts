import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { WEB_SCHEMA_FILE, webClientTypes } from '../scripts/web-client.js'

describe('the web app’s typed API client', () => {
  it('is generated from the current openapi.json (run npm run web:generate when this fails)', async () => {
    const checkedIn = await readFile(WEB_SCHEMA_FILE, 'utf8')
    const current = await webClientTypes()
    expect(checkedIn === current, `${WEB_SCHEMA_FILE} is stale: run npm run web:generate`).toBe(true)
    expect(current).toContain("'/api/auth/login/cookie'")
  })
})
