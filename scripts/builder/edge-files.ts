import { link, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import type { IndexEntry } from '../../model/article.ts'
import { detailBytes } from '../../post-index/detail-body.ts'

/**
 * Writes an article's detail response to `target`, the file the edge serves
 * (post-index/edge-files.ts). A file whose bytes are the previous build's is linked from it, which
 * keeps its mtime and so its validators; a changed one is written anew, its mtime moved past the
 * previous file's by at least a second so that its ETag changes too.
 *
 * `unchanged`: the article's source and the code that lays out its answer are the previous
 * build's, so the previous file is linked unread. `entry` builds the post index entry (it reads
 * the markdown).
 */
export async function writeEdgeFile(
  target: string,
  previous: string | undefined,
  unchanged: boolean,
  entry: () => Promise<IndexEntry>,
  baseUrl: string,
): Promise<void> {
  if (previous && unchanged && (await linked(previous, target))) return
  const { markdown, ...meta } = await entry()
  const bytes = detailBytes(meta, Buffer.from(JSON.stringify(markdown)), baseUrl)
  const before = previous ? await readFile(previous).catch(() => undefined) : undefined
  if (before?.equals(bytes) && (await linked(previous!, target))) return
  await writeFile(target, bytes)
  if (!before) return
  const previousSeconds = Math.floor((await stat(previous!)).mtimeMs / 1000)
  if (Math.floor((await stat(target)).mtimeMs / 1000) <= previousSeconds)
    await utimes(target, previousSeconds + 1, previousSeconds + 1)
}

/** Links `from` to `to`; false when `from` is gone. */
export async function linked(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to)
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw e
  }
}
