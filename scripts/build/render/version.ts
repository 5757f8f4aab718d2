/**
 * RENDERER_VERSION: a digest of everything that decides the HTML of an article, namely the
 * versions of the libraries that render it and the options they run with. A build cache keyed
 * by it never serves HTML made by another renderer.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** The installed version of a package, read from its package.json (found beside its entry). */
export function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name))
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (manifest.name === name && manifest.version) return manifest.version
    } catch {
      // no package.json here: keep climbing
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`cannot find the version of ${name}`)
    dir = parent
  }
}

/** A short stable digest of the packages' versions and the options (any JSON-able value). */
export function rendererVersion(packages: readonly string[], options: unknown): string {
  const versions = Object.fromEntries([...packages].sort().map((p) => [p, packageVersion(p)]))
  return createHash('sha256').update(JSON.stringify({ versions, options })).digest('hex').slice(0, 16)
}
