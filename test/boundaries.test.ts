/**
 * The layers of the project (docs/architecture.md#layers): each folder imports only the folders
 * below it, so that the build never reaches into the service nor the service into the build.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './support/temp.ts'

const ROOT = join(import.meta.dirname, '..')

/** What each top folder may import besides itself (packages and node: modules aside). */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  'post-index': ['model'],
  site: ['model'],
  scripts: ['model', 'post-index', 'site', 'search'],
  search: ['model'],
  'auth-service': ['model', 'post-index'],
  bin: ['model', 'post-index', 'site', 'search', 'scripts', 'auth-service'],
}
const SOURCE = /\.(ts|mts|js|mjs|astro)$/
/** Relative specifiers of static imports, re-exports and dynamic imports. */
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
}

/** Every import that leaves `folder` for a folder it may not use, as "file -> target". */
function crossings(folder: string, root = ROOT): string[] {
  const found: string[] = []
  for (const file of sources(join(root, folder))) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = relative(root, resolve(dirname(file), spec!))
      const top = target.split(sep)[0]!
      if (top !== folder && !ALLOWED[folder]!.includes(top)) found.push(`${relative(root, file)} -> ${target}`)
    }
  }
  return found
}

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
