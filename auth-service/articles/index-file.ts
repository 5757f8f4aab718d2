import { readFile, stat } from 'node:fs/promises'
import { watchFile, unwatchFile, type Stats } from 'node:fs'
import { createPostIndex, type PostIndex } from './post-index.ts'
import { validateIndex } from './validate-index.ts'

/** Reads, validates and prepares the post index the build wrote. */
export async function loadIndexFile(file: string, baseUrl: string): Promise<PostIndex> {
  const text = await readFile(file, 'utf8')
  return createPostIndex(validateIndex(JSON.parse(text)), baseUrl)
}

/**
 * Reloads the index when the build swaps in a new one (scripts/build.ts renames the `current`
 * link, so the path's inode changes). Polls with stat, which sees through the link and works on
 * every filesystem and inside containers. A bad new file keeps the old index serving.
 */
export function watchIndexFile(
  file: string,
  baseUrl: string,
  onLoad: (index: PostIndex) => void,
  onError: (error: unknown) => void,
  intervalMs = 1000,
): () => void {
  let loading: Promise<void> = Promise.resolve()
  const changed = (curr: Stats, prev: Stats) =>
    curr.ino !== prev.ino || curr.mtimeMs !== prev.mtimeMs || curr.size !== prev.size
  const listener = (curr: Stats, prev: Stats) => {
    if (curr.nlink === 0 || !changed(curr, prev)) return
    loading = loading.then(() => loadIndexFile(file, baseUrl).then(onLoad, onError))
  }
  watchFile(file, { interval: intervalMs, persistent: false }, listener)
  return () => unwatchFile(file, listener)
}

export async function indexFileExists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}
