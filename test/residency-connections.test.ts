import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig, REGIONS, sameStore, type Region } from '../src/config.js'

/**
 * Every place the service opens a connection to another machine, and where its target comes
 * from. A new one (SMTP, a DNS server, another store) fails the source scan below until it is
 * added here with the configuration that decides its target.
 */
const OUTGOING: Record<string, string> = {
  'src/db/sql-backend.ts': 'database: DATABASE_URL (checked against the other regions’ databases at start)',
  'src/platform/rate-limit-fallback.ts': 'Redis: REDIS_URL (checked against the other regions’ Redis at start)',
  'src/modules/webhooks/webhooks.http.ts':
    'webhook receivers: the partner’s https URL, pinned to the public address the SSRF guard checked',
  'src/modules/email/email.sender.ts':
    'SMTP: SMTP_URL, the operator’s own mail server (unset: files under DATA_DIR/mail/, nothing leaves the machine)',
  'src/main.ts': 'none: with PORT=0 it binds a loopback socket of its own for a moment, to learn a free port',
  'src/modules/webhooks/webhooks.ssrf.ts':
    'DNS: the system resolver, to resolve receivers’ host names; private addresses (where stores live) are refused',
}

const NETWORK_MODULES =
  /from '(pg|ioredis|undici|nodemailer|node:net|node:tls|node:dns(?:\/promises)?|node:http|node:https)'/

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) return sourceFiles(full)
      return Promise.resolve(entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [])
    }),
  )
  return files.flat()
}

describe('outgoing connections', () => {
  it('are all listed, with the configuration that decides their target', async () => {
    const opening: string[] = []
    for (const file of await sourceFiles('src')) {
      const text = await readFile(file, 'utf8')
      // Type-only imports open nothing.
      const imports = text.split('\n').filter((line) => NETWORK_MODULES.test(line) && !/^import type /.test(line))
      if (imports.length > 0) opening.push(file.split(path.sep).join('/'))
    }
    expect(opening.sort()).toEqual(Object.keys(OUTGOING).sort())
  })

  it('never reach another region’s store: a deployment configured with one refuses to start', () => {
    const stores: Record<string, string> = {}
    for (const region of REGIONS) {
      const suffix = region.replace('-', '_').toUpperCase()
      stores[`REGION_DATABASE_URL_${suffix}`] = `postgres://app@db.${region}.internal:5432/oeuvre`
      stores[`REGION_REDIS_URL_${suffix}`] = `redis://redis.${region}.internal:6379/0`
    }
    for (const region of REGIONS) {
      const own = (kind: 'DATABASE' | 'REDIS', of: Region) =>
        stores[`REGION_${kind}_URL_${of.replace('-', '_').toUpperCase()}`]!
      const config = loadConfig({
        ...stores,
        REGION: region,
        DATABASE_URL: own('DATABASE', region),
        REDIS_URL: own('REDIS', region),
      })
      for (const other of REGIONS.filter((candidate) => candidate !== region)) {
        expect(sameStore(config.databaseUrl!, own('DATABASE', other), 5432)).toBe(false)
        expect(sameStore(config.redisUrl!, own('REDIS', other), 6379)).toBe(false)
        expect(() => loadConfig({ ...stores, REGION: region, DATABASE_URL: own('DATABASE', other) })).toThrow(
          /DATABASE_URL/,
        )
        expect(() => loadConfig({ ...stores, REGION: region, REDIS_URL: own('REDIS', other) })).toThrow(/REDIS_URL/)
      }
    }
  })
})
