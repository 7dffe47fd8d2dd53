import { execFile, spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { owner, request, startServe } from './drill-helpers.js'

/**
 * One process per embedded data directory, through real processes: `oeuvre serve` on a PGlite
 * DATA_DIR, and the CLI beside it on the same directory. (PGlite only: with DATABASE_URL the
 * processes share a server, as they should; these children never get one.)
 */

const ROOT = path.resolve(import.meta.dirname, '..')
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** `oeuvre <args>` on the embedded database in `dataDir`. */
function oeuvre(dataDir: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0' },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('an embedded data directory', () => {
  it('is held by the running server: the CLI beside it is refused, naming the server, and writes nothing; once it stops, the CLI runs', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-lock-cli-'))
    dirs.push(dataDir)
    const lockFile = path.join(dataDir, 'pglite.lock')
    const server = await startServe({ DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir })
    let orgId: string
    let token: string
    let statement: string
    try {
      ;({ orgId, token } = await owner(server.url, 'lock'))
      const creator = await request(`${server.url}/api/creators`, {
        method: 'POST',
        token,
        body: { name: 'Artist', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
      })
      const entry = await request(`${server.url}/api/catalog`, {
        method: 'POST',
        token,
        body: {
          kind: 'recording',
          title: 'Song',
          identifiers: { isrc: 'USRC17607839' },
          splits: [{ creatorId: (JSON.parse(creator.body) as { id: string }).id, role: 'artist', shareBps: 10000 }],
        },
      })
      expect(entry.status, entry.body).toBe(201)
      statement = path.join(dataDir, 'statement.csv')
      await writeFile(
        statement,
        [
          'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref',
          'USRC17607839,DE,2026-09-01,2026-09-30,3,0.30,EUR,S-1,1',
          'USRC17607839,FR,2026-09-01,2026-09-30,5,0.50,EUR,S-1,2',
        ].join('\n'),
      )
      expect(existsSync(lockFile)).toBe(true)

      const refusals = await Promise.all([
        oeuvre(dataDir, ['revenue', 'import', statement, '--org', orgId, '--source', 'Lock test']),
        oeuvre(dataDir, ['migrate']),
        oeuvre(dataDir, ['audit', 'verify', '--org', orgId]),
        oeuvre(dataDir, ['payouts', 'run', '--org', orgId]),
        oeuvre(dataDir, ['serve']),
      ])
      const holder = new RegExp(
        `^error: the data directory \\S+ is in use by another Oeuvre process: pid ${server.child.pid} \\(oeuvre serve, since \\S+Z, serving ${server.url.replace(/\./g, '\\.')}\\)\\. Stop that process first, or do this through the running server's API or app\\.\\n$`,
      )
      for (const refusal of refusals) {
        expect(refusal.code).toBe(1)
        expect(refusal.stderr).toMatch(holder)
        expect(refusal.stdout).toBe('')
      }
      // Nothing was booked: the server (which alone could have seen it) has no revenue.
      const revenue = await request(`${server.url}/api/revenue`, { token })
      expect(JSON.parse(revenue.body)).toMatchObject({ data: [] })
      expect(server.alive()).toBe(true)
    } finally {
      await server.stop()
    }
    expect(existsSync(lockFile)).toBe(false)

    // The server is gone: the import runs, and books every line (the refused run wrote none).
    const imported = await oeuvre(dataDir, ['revenue', 'import', statement, '--org', orgId, '--source', 'Lock test'])
    expect(imported).toMatchObject({ code: 0, stdout: 'imported 2, skipped 0 (already present), rejected 0\n' })
    expect(existsSync(lockFile)).toBe(false)
  }, 240_000)

  it('left by a process that is gone is taken over, with a line saying so', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-lock-stale-'))
    dirs.push(dataDir)
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    await new Promise((resolve) => gone.once('exit', resolve))
    const lockFile = path.join(dataDir, 'pglite.lock')
    writeFileSync(
      lockFile,
      JSON.stringify({ pid: gone.pid, command: 'oeuvre serve', since: '2026-11-22T10:15:30.123Z' }),
    )
    const migrated = await oeuvre(dataDir, ['migrate'])
    expect(migrated.code, migrated.stderr).toBe(0)
    expect(migrated.stdout).toMatch(/^applied /)
    expect(migrated.stderr).toContain(
      `pid ${gone.pid} (oeuvre serve, since 2026-11-22T10:15:30.123Z) is gone; taking it over`,
    )
    expect(existsSync(lockFile)).toBe(false)
  }, 120_000)
})
