/**
 * RENDERER_VERSION: a digest of everything that decides the HTML of an article, namely the
 * versions of the libraries that render it, the options they run with and the renderer's own
 * source. A build cache keyed by it never serves HTML made by another renderer.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** The installed version of a package, read from its package.json (found beside its entry). */
export function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name))
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === name && manifest.version) return manifest.version
    } catch {
      // no package.json here: keep climbing
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`cannot find the version of ${name}`)
    dir = parent
  }
}

/**
 * The renderer's own modules and those of the citations and cross-references (../references/,
 * with its default CSL style), so that editing their code also gives a new version.
 */
export function rendererSources(): string[] {
  const dirs = [
    import.meta.dirname,
    join(import.meta.dirname, '..', 'references'),
    join(import.meta.dirname, '..', 'references', 'styles'),
  ]
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts') || f.endsWith('.csl'))
      .sort()
      .map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`),
  )
}

/** A short stable digest of the packages' versions, the options (any JSON-able value) and sources. */
export function rendererVersion(
  packages: readonly string[],
  options: unknown,
  sources: readonly string[] = rendererSources(),
): string {
  const versions = Object.fromEntries([...packages].sort().map((p) => [p, packageVersion(p)]))
  const hash = createHash('sha256').update(JSON.stringify({ versions, options }))
  for (const source of sources) hash.update(source)
  return hash.digest('hex').slice(0, 16)
}
