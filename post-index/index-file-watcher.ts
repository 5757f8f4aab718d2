/**
 * Follows a build link and reloads the post index when a build swaps in a new one: what the
 * service runs to serve each new build without a restart.
 */
import { realpathSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { INDEX_FILES } from './index-file.ts'
import { loadIndexFile } from './index-file-loader.ts'
import type { PostIndex } from './post-index.ts'

/** Which index file a build link leads to: the build folder it resolves to, and the file's identity. */
export interface IndexSource {
  /** The build folder, the link resolved. */
  dir: string
  ino: number
  mtimeMs: number
  size: number
}

/** Where the index in `buildDir` is now, or undefined when the link or the file cannot be read. */
export function indexSource(buildDir: string): IndexSource | undefined {
  try {
    const dir = realpathSync(buildDir)
    const { ino, mtimeMs, size } = statSync(join(dir, INDEX_FILES.entries))
    return { dir, ino, mtimeMs, size }
  } catch {
    return undefined
  }
}

const sameFile = (a: IndexSource, b: IndexSource) => a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.size === b.size

/**
 * Follows the build link: reloads the index when a build swaps in a new one, so a running server
 * serves it within one interval. Polls the link and the entries file (cheap, and it works on
 * every filesystem and inside containers); a bad new index keeps the old one serving, and is not
 * tried again until the link leads elsewhere.
 *
 * A later swap of the same build (the search index lands after the pages) hard-links the same
 * entries file into a new build folder: nothing to reload, but the index now stands for that
 * build, and `onRelabel` is told its name. Only the same file is relabelled, never a new one.
 */
export function watchIndexFile(
  buildDir: string,
  baseUrl: string,
  options: {
    /** Where the index being served was loaded from (indexSource just before loading it). */
    served: IndexSource | undefined
    onLoad: (index: PostIndex) => void
    onError: (error: unknown) => void
    onRelabel?: (build: string) => void
    intervalMs?: number
  },
): () => void {
  let served = options.served
  let failed: IndexSource | undefined
  let loading = false
  const timer = setInterval(() => {
    if (loading) return
    const now = indexSource(buildDir)
    if (!now) return
    if (served && sameFile(now, served)) {
      if (now.dir !== served.dir) {
        served = now
        options.onRelabel?.(basename(now.dir))
      }
      return
    }
    if (failed && sameFile(now, failed) && now.dir === failed.dir) return
    loading = true
    loadIndexFile(now.dir, baseUrl)
      .then(
        (index) => {
          served = now
          failed = undefined
          options.onLoad(index)
        },
        (error) => {
          failed = now
          options.onError(error)
        },
      )
      .finally(() => (loading = false))
  }, options.intervalMs ?? 1000)
  timer.unref()
  return () => clearInterval(timer)
}
