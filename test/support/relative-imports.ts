/**
 * The project's own imports as the layer tests read them: every source file under a folder, and
 * the relative specifiers of its static imports, re-exports and dynamic imports, resolved.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const SOURCE = /\.(ts|mts|js|mjs|astro)$/
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g

/** The source files under `dir`, node_modules aside. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !e.parentPath.includes(`${sep}node_modules`))
    .map((e) => join(e.parentPath, e.name))
}

/** Each relative import of each source file under `root/folder`, as [file, target] relative to `root`. */
export function relativeImports(folder: string, root: string): Array<[string, string]> {
  const arrows: Array<[string, string]> = []
  for (const file of sources(join(root, folder)))
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER))
      arrows.push([relative(root, file), relative(root, resolve(dirname(file), spec!))])
  return arrows
}
