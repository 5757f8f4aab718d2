/**
 * No loops between the parts of any folder, at any depth: inside every source folder, its
 * sub-folders and files (each drawn as one part) import each other one way only. The declared
 * orders of test/boundaries.test.ts say which way for the largest folders; this holds every other
 * folder to having some order, so a loop between, say, two sub-folders of scripts/builder/ fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { relativeImports } from './support/relative-imports.ts'
import { tempDir } from './support/temp.ts'

const ROOT = join(import.meta.dirname, '..')
const FOLDERS = ['auth-service', 'bench', 'bin', 'model', 'post-index', 'scripts', 'search', 'site'] as const
/** The loops among the parts of each folder, as "folder: a -> b -> a" (Tarjan's components). */
function partLoops(top: string, root = ROOT): string[] {
  // For each folder holding both ends of an arrow, the arrow between its two parts.
  const graphs = new Map<string, Map<string, Set<string>>>()
  for (const [from, to] of relativeImports(top, root)) {
    if (to.split(sep)[0] !== top) continue
    const a = from.split(sep)
    const b = to.split(sep)
    let depth = 0
    while (depth < a.length - 1 && depth < b.length - 1 && a[depth] === b[depth]) depth++
    if (a[depth] === b[depth]) continue
    const folder = a.slice(0, depth).join('/')
    const graph = graphs.get(folder) ?? new Map<string, Set<string>>()
    graphs.set(folder, graph)
    const out = graph.get(a[depth]!) ?? new Set<string>()
    graph.set(a[depth]!, out.add(b[depth]!))
  }
  const loops: string[] = []
  for (const [folder, graph] of graphs) {
    for (const component of components(graph)) loops.push(`${folder}: ${component.sort().join(' <-> ')}`)
  }
  return loops.sort()
}

/** The strongly connected components of more than one part. */
function components(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop()!
      component.push(w)
    } while (w !== v)
    if (component.length > 1) found.push(component)
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

describe('the parts of every folder', () => {
  for (const top of FOLDERS)
    it(`${top}/: no two parts of any folder import each other, even through others`, () => {
      expect(partLoops(top)).toEqual([])
    })

  it('finds a loop between two sub-folders three deep, and passes one-way imports', () => {
    const root = tempDir('loops')
    for (const dir of ['render', 'references', 'citation'])
      mkdirSync(join(root, 'scripts', 'builder', dir), { recursive: true })
    writeFileSync(join(root, 'scripts', 'builder', 'render', 'a.ts'), "import { b } from '../references/b.ts'\n")
    writeFileSync(join(root, 'scripts', 'builder', 'references', 'b.ts'), "const c = await import('../render/c.ts')\n")
    writeFileSync(join(root, 'scripts', 'builder', 'citation', 'd.ts'), "import { b } from '../references/b.ts'\n")
    writeFileSync(join(root, 'scripts', 'build.ts'), "import { a } from './builder/render/a.ts'\n")
    expect(partLoops('scripts', root)).toEqual(['scripts/builder: references <-> render'])
  })
})
