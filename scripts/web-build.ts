import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/**
 * `npm run web:build` builds the web app into web/dist; `--if-stale` (what `npm start` runs first)
 * builds only when web/dist is missing or was built from other sources or dependency versions,
 * found by a hash of them kept beside the build (a dot-file the service never serves).
 */
const INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'packages/sdk/src',
  'package-lock.json',
]
const STAMP = 'web/dist/.source-hash'

async function files(entry: string): Promise<string[]> {
  try {
    const names = await readdir(entry, { recursive: true, withFileTypes: true })
    return names.filter((name) => name.isFile()).map((name) => path.join(name.parentPath, name.name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return [entry]
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

async function sourceHash(): Promise<string> {
  const hash = createHash('sha256')
  const all = (await Promise.all(INPUTS.map(files))).flat().sort()
  for (const file of all)
    hash
      .update(file)
      .update('\0')
      .update(await readFile(file))
      .update('\0')
  return hash.digest('hex')
}

const ifStale = process.argv.includes('--if-stale')
const hash = await sourceHash()
const built = await readFile(STAMP, 'utf8').catch(() => null)
if (ifStale && built === hash) process.exit(0)

process.stdout.write(ifStale ? 'building the web app (missing or out of date) ...\n' : 'building the web app ...\n')
const started = performance.now()
// A production build whoever runs it: under a test runner NODE_ENV=test would give React's development build.
process.env.NODE_ENV = 'production'
const { build } = await import('vite')
await build({ configFile: 'web/vite.config.ts', mode: 'production', logLevel: 'warn' })
// Compressed once here, served as they are (`@fastify/static` preCompressed): no compression per request.
for (const file of await files('web/dist')) {
  if (!/\.(js|css|html|svg)$/.test(file)) continue
  const content = await readFile(file)
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }))
  await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
}
await writeFile(STAMP, hash)
process.stdout.write(`built the web app into web/dist in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
