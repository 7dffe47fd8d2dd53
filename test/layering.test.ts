import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The layers, read from the source: src/db/ imports nothing of the application's (not
 * platform/, not modules/, not the schema), platform/ nothing of modules/, and neither has an
 * import cycle among its own files. A lower layer that called back up would need one of these.
 */

const SRC = path.resolve(import.meta.dirname, '../src')

/** Every non-test .ts file of `dir` (relative to src/) with the files it imports (resolved, relative to src/), packages left out. */
function importsOf(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const name of readdirSync(path.join(SRC, dir))) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue
    const file = path.join(dir, name)
    const text = readFileSync(path.join(SRC, file), 'utf8')
    const targets = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)].map(
      (match) => path.normalize(path.join(dir, (match[1] ?? match[2]!).replace(/\.js$/, '.ts'))),
    )
    graph.set(file, targets)
  }
  return graph
}

/** A cycle among the graph's own files, as the files around it, or null. */
function cycleIn(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const trail: string[] = []
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done' || !graph.has(file)) return null
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file]
    state.set(file, 'open')
    trail.push(file)
    for (const target of graph.get(file)!) {
      const found = visit(target)
      if (found) return found
    }
    trail.pop()
    state.set(file, 'done')
    return null
  }
  for (const file of graph.keys()) {
    const found = visit(file)
    if (found) return found
  }
  return null
}

describe('layers', () => {
  it('src/db imports only its own files and packages, with no cycle', () => {
    const db = importsOf('db')
    expect(db.size).toBeGreaterThan(5)
    const outside = [...db].flatMap(([file, targets]) =>
      targets.filter((target) => !target.startsWith(`db${path.sep}`)).map((target) => `${file} -> ${target}`),
    )
    expect(outside).toEqual([])
    expect(cycleIn(db)).toBeNull()
  })

  it('src/platform imports nothing from modules, with no cycle', () => {
    const platform = importsOf('platform')
    const upward = [...platform].flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith(`modules${path.sep}`)).map((target) => `${file} -> ${target}`),
    )
    expect(upward).toEqual([])
    expect(cycleIn(platform)).toBeNull()
  })

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ])
    expect(cycleIn(graph)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts'])
    expect(cycleIn(new Map([['a.ts', ['b.ts']]]))).toBeNull()
  })
})
