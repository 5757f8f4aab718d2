/**
 * The persistent build cache: everything derived from one article's markdown, computed once per
 * content hash. One JSON file per entry under `<DIST_DIR>/cache/<key>/`, where the key covers
 * the entry format and the renderer's version (its libraries and options), so that a change of
 * either starts an empty cache. Entries are written to a temporary name and renamed: a build
 * killed half way leaves whole entries or none. Safe to delete at any time.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ArticleMeta } from './content.ts'
import type { RenderedArticle } from './render/types.ts'

/** Bump when the entry's shape or the meaning of a field changes. */
const FORMAT_VERSION = 3

/** What an article's markdown yields, whatever its file name. */
export interface CacheEntry {
  meta: Omit<ArticleMeta, 'slug' | 'hash'>
  html: string
  headings: Array<{ depth: number; slug: string; text: string }>
  text: string
  excerpt: string
  /** The body readers get, for an article that cites or cross-references (render/types.ts). */
  markdown?: string
  /** The works it cites, CSL-JSON. */
  references?: RenderedArticle['references']
}

export interface BuildCache {
  readonly dir: string
  get(hash: string): Promise<CacheEntry | undefined>
  put(hash: string, entry: CacheEntry): Promise<void>
  /** Removes the caches of other renderer versions or formats. */
  pruneOthers(): void
}

export function openCache(root: string, rendererVersion: string): BuildCache {
  const key = createHash('sha256').update(`${FORMAT_VERSION}\0${rendererVersion}`).digest('hex').slice(0, 16)
  const dir = join(root, key)
  mkdirSync(dir, { recursive: true })
  let seq = 0
  const path = (hash: string) => join(dir, hash.slice(0, 2), `${hash}.json`)
  return {
    dir,
    async get(hash) {
      try {
        return JSON.parse(await readFile(path(hash), 'utf8')) as CacheEntry
      } catch {
        // Missing, or unreadable for any reason: render again.
        return undefined
      }
    },
    async put(hash, entry) {
      const file = path(hash)
      mkdirSync(join(dir, hash.slice(0, 2)), { recursive: true })
      const tmp = `${file}.${process.pid}.${seq++}.tmp`
      await writeFile(tmp, JSON.stringify(entry))
      await rename(tmp, file)
    },
    pruneOthers() {
      for (const d of readdirSync(root)) if (d !== key) rmSync(join(root, d), { recursive: true, force: true })
    },
  }
}
