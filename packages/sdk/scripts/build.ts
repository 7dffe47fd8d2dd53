import { execFile } from 'node:child_process'
import { cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'

/**
 * The package's build: one ES module bundle and one CommonJS bundle of src/ (esbuild), and
 * type declarations (tsc) beside each; dist/cjs has a package.json of its own saying its files
 * are CommonJS, so Node and TypeScript read the `require` side as such. The bundles are built for
 * a neutral platform: a Node-only import (`node:crypto`, ...) in src/ fails the build.
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = `${root}dist`
const sources = `${root}src`

export async function buildSdk(): Promise<void> {
  await rm(dist, { recursive: true, force: true })
  const common = {
    entryPoints: [`${sources}/index.ts`],
    bundle: true,
    platform: 'neutral' as const,
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning' as const,
  }
  await Promise.all([
    build({ ...common, format: 'esm', outfile: `${dist}/esm/index.js` }),
    build({ ...common, format: 'cjs', outfile: `${dist}/cjs/index.js` }),
  ])
  await writeFile(`${dist}/cjs/package.json`, '{ "type": "commonjs" }\n')
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  await promisify(execFile)(process.execPath, [
    tsc,
    '-p',
    `${root}tsconfig.json`,
    '--emitDeclarationOnly',
    '--outDir',
    `${dist}/esm`,
  ])
  await cp(`${dist}/esm`, `${dist}/cjs`, {
    recursive: true,
    filter: async (path) => (await stat(path)).isDirectory() || path.endsWith('.d.ts'),
  })
}

/** Whether dist/ is older than a source file (or missing). */
export async function buildIsStale(): Promise<boolean> {
  let built: number
  try {
    built = (await stat(`${dist}/cjs/index.d.ts`)).mtimeMs
  } catch {
    return true
  }
  const files = [`${root}package.json`, `${root}tsconfig.json`]
  for (const file of await readdir(sources, { recursive: true })) files.push(`${sources}/${file}`)
  for (const file of files) if ((await stat(file)).mtimeMs > built) return true
  return false
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now()
  await mkdir(dist, { recursive: true })
  await buildSdk()
  console.log(`packages/sdk/dist: ESM, CommonJS and declarations in ${Date.now() - started} ms`)
}
