/**
 * The layers of the project (docs/architecture.md#layers): each folder imports only the folders
 * below it, so that the build never reaches into the service nor the service into the build.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { relativeImports, sources } from './support/relative-imports.ts'
import { tempDir } from './support/temp.ts'

const ROOT = join(import.meta.dirname, '..')

/** What each top folder may import besides itself (packages and node: modules aside). */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  // The API's typo rule is the search page's own function (search/browser/search-typos.js).
  'post-index': ['model', 'search'],
  site: ['model'],
  scripts: ['model', 'post-index', 'site', 'search'],
  search: ['model'],
  'auth-service': ['model', 'post-index'],
  bin: ['model', 'post-index', 'site', 'search', 'scripts', 'auth-service'],
}
/**
 * The parts inside a top folder, lowest first: each part (a sub-folder, or a file directly in
 * the folder) imports only the parts before it, so no two parts import each other, even through others.
 */
const ORDER: Record<string, readonly string[]> = {
  'auth-service': [
    'defaults.ts',
    'errors.ts',
    'config.ts',
    'ops',
    'store',
    'auth',
    'oai',
    'http',
    'schemas',
    'routes',
    'mcp',
    'endpoints.ts',
    'openapi',
    'app.ts',
    'server.ts',
  ],
  scripts: [
    'deploy',
    'builder',
    'build-state.ts',
    'build.ts',
    'build-cli.ts',
    'builder-service',
    'publish-schedule.ts',
    'postinstall.ts',
  ],
}
/** Every import that leaves `folder` for a folder it may not use, as "file -> target". */
function crossings(folder: string, root = ROOT): string[] {
  return relativeImports(folder, root)
    .filter(([, target]) => {
      const top = target.split(sep)[0]!
      return top !== folder && !ALLOWED[folder]!.includes(top)
    })
    .map(([file, target]) => `${file} -> ${target}`)
}

/** The part of `folder` a path inside it belongs to: its first segment below the folder. */
const partOf = (path: string) => path.split(sep)[1]!

/** Every import between two parts of `folder` that points up its declared order, or leaves it. */
function wrongWays(folder: string, root = ROOT, order = ORDER[folder]!): string[] {
  const found: string[] = []
  for (const [file, target] of relativeImports(folder, root)) {
    const from = partOf(file)
    const to = partOf(target)
    if (target.split(sep)[0] !== folder || to === from) continue
    const arrow = `${file} -> ${target}`
    const undeclared = [from, to].filter((part) => !order.includes(part))
    if (undeclared.length > 0) found.push(`${arrow}: declare ${undeclared.join(' and ')} in the order of ${folder}/`)
    else if (order.indexOf(to) > order.indexOf(from))
      found.push(`${arrow}: ${from} stands below ${to} in the order of ${folder}/, so it may not import it`)
  }
  return found
}

describe('the parts inside a folder', () => {
  for (const folder of Object.keys(ORDER)) {
    it(`${folder}/ imports only down the order ${ORDER[folder]!.join(' < ')}`, () => {
      expect(wrongWays(folder)).toEqual([])
    })
    it(`${folder}/ declares each of its parts`, () => {
      const parts = new Set(sources(join(ROOT, folder)).map((f) => partOf(relative(ROOT, f))))
      expect([...parts].filter((p) => !ORDER[folder]!.includes(p))).toEqual([])
    })
  }

  it('refuses an import up the order, and so any cycle between two parts', () => {
    const root = tempDir('parts')
    mkdirSync(join(root, 'service', 'low'), { recursive: true })
    mkdirSync(join(root, 'service', 'high'), { recursive: true })
    writeFileSync(join(root, 'service', 'high', 'a.ts'), "import { b } from '../low/b.ts'\n")
    writeFileSync(join(root, 'service', 'low', 'b.ts'), "export { a } from '../high/a.ts'\n")
    writeFileSync(join(root, 'service', 'c.ts'), "const d = await import('./other/d.ts')\n")
    expect(wrongWays('service', root, ['low', 'high', 'c.ts'])).toEqual([
      `service${sep}c.ts -> service${sep}other${sep}d.ts: declare other in the order of service/`,
      `service${sep}low${sep}b.ts -> service${sep}high${sep}a.ts: low stands below high in the order of service/, so it may not import it`,
    ])
  })
})

describe('the layers', () => {
  for (const folder of Object.keys(ALLOWED))
    it(`${folder}/ imports only ${ALLOWED[folder]!.join(', ') || 'itself'}`, () => {
      expect(crossings(folder)).toEqual([])
    })

  it('sees a crossing, static or dynamic, and lets a permitted one pass', () => {
    const root = tempDir('layers')
    mkdirSync(join(root, 'scripts', 'builder'), { recursive: true })
    writeFileSync(
      join(root, 'scripts', 'builder', 'x.ts'),
      "import { a } from '../../model/a.ts'\nexport { b } from '../../auth-service/b.ts'\n" +
        "const c = await import('../../auth-service/c.ts')\n",
    )
    expect(crossings('scripts', root)).toEqual([
      `scripts${sep}builder${sep}x.ts -> auth-service${sep}b.ts`,
      `scripts${sep}builder${sep}x.ts -> auth-service${sep}c.ts`,
    ])
  })
})
