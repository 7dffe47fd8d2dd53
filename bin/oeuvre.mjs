#!/usr/bin/env node
// `oeuvre <command>`: runs the TypeScript entry through tsx, or the compiled build when present.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const compiled = fileURLToPath(new URL('../dist/main.js', import.meta.url))
if (existsSync(compiled)) {
  await import(compiled)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(new URL('../src/main.ts', import.meta.url).href)
}
