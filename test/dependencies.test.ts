/**
 * The service's image installs `dependencies` only (`npm ci --omit=dev`), so every package the
 * service's code imports must be declared there: one that arrives only as another package's
 * dependency can vanish with that package's next release.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
/** The folders the service's image runs. */
const SERVICE_FOLDERS = ['auth-service', 'model', 'post-index']
const SOURCE = /\.(ts|mts|js|mjs)$/

/**
 * Bare specifiers of value imports: static imports and re-exports (`import type` / `export type`
 * are erased and load nothing), side-effect imports and dynamic imports.
 */
function bareImports(text: string): string[] {
  const found: string[] = []
  const patterns = [
    /^\s*(?:import|export)\s+(?!type\s)[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns)
    for (const [, spec] of text.matchAll(pattern)) if (!/^(\.|\/|node:)/.test(spec!)) found.push(packageOf(spec!))
  return found
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
}

describe('declared imports', () => {
  const declared = new Set(
    Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
    ),
  )

  it('imports in the service only packages its dependencies declare', () => {
    const undeclared: string[] = []
    for (const folder of SERVICE_FOLDERS)
      for (const file of sources(join(ROOT, folder)))
        for (const name of bareImports(readFileSync(file, 'utf8')))
          if (!declared.has(name)) undeclared.push(`${relative(ROOT, file)} imports ${name}`)
    expect(undeclared).toEqual([])
  })

  it('sees static, side-effect, re-exported and dynamic imports, and skips types and node: modules', () => {
    const text = [
      "import fresh from 'fresh'",
      "import { z } from 'zod/v4'",
      "import type { Request } from 'express-serve-static-core'",
      "import '@scope/polyfill/auto'",
      "export { x } from 'reexported'",
      "export type { Y } from 'types-only'",
      "const m = await import('dynamic-pkg')",
      "import { readFileSync } from 'node:fs'",
      "import { a } from './local.ts'",
    ].join('\n')
    expect(bareImports(text).sort()).toEqual(['@scope/polyfill', 'dynamic-pkg', 'fresh', 'reexported', 'zod'])
  })
})
