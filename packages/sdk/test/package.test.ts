import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(await readFile(`${packageDir}package.json`, 'utf8')) as Record<string, unknown>
/** The entry points DESIGN.md names, so integrations read the same everywhere. */
const ENTRY_POINTS = [
  'Oeuvre',
  'verifyWebhook',
  'verifyCheckpoint',
  'verifyInclusion',
  'verifyConsistency',
  'OeuvreError',
  'RateLimitError',
  'WrongRegionError',
  'AuthenticationError',
  'PermissionError',
  'NotFoundError',
  'ValidationError',
  'ConnectionError',
  'TimeoutError',
]

const node = (args: string[]) => run(process.execPath, args, { cwd: packageDir })

describe('the built package', () => {
  it('has no runtime dependencies', () => {
    expect(manifest.dependencies ?? {}).toEqual({})
    expect(manifest.peerDependencies ?? {}).toEqual({})
    expect(manifest.engines).toEqual({ node: '>=18' })
  })

  it('loads as an ES module and as CommonJS, with the same exports', async () => {
    const esm = await node([
      '--input-type=module',
      '-e',
      "const sdk = await import('@oeuvre/sdk'); console.log(JSON.stringify(Object.keys(sdk).sort()))",
    ])
    const cjs = await node(['-e', "console.log(JSON.stringify(Object.keys(require('@oeuvre/sdk')).sort()))"])
    const esmNames = JSON.parse(esm.stdout) as string[]
    expect(JSON.parse(cjs.stdout)).toEqual(esmNames)
    expect(esmNames).toEqual(expect.arrayContaining(ENTRY_POINTS))
    const require = createRequire(import.meta.url)
    expect(require.resolve('@oeuvre/sdk')).toMatch(/packages\/sdk\/dist\/cjs\/index\.js$/)
  })

  it('imports nothing of Node: the same bundle runs in browsers', async () => {
    for (const format of ['esm', 'cjs']) {
      const bundle = await readFile(`${packageDir}dist/${format}/index.js`, 'utf8')
      expect(bundle).not.toMatch(/\bfrom\s*["']node:|require\(\s*["'](node:)?[a-z_]+["']\s*\)|\bBuffer\b|\bprocess\./)
      expect(bundle).not.toMatch(/^import /m)
    }
    const sources = (await readdir(`${packageDir}src`, { recursive: true })).filter((file) => file.endsWith('.ts'))
    for (const file of sources)
      expect(await readFile(`${packageDir}src/${file}`, 'utf8'), file).not.toMatch(/from ['"]node:/)
  })

  it('types an ES module consumer, a CommonJS consumer and the README’s example (tsc, Node16 resolution)', async () => {
    const readme = await readFile(`${packageDir}README.md`, 'utf8')
    const example = /## Five minutes[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]
    expect(await readFile(`${packageDir}test/consumer/readme.mts`, 'utf8'), 'copy the README example').toBe(example)
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    const result = await node([tsc, '-p', `${packageDir}test/consumer/tsconfig.json`]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    )
    expect(result.stdout).toBe('')
  })
})
