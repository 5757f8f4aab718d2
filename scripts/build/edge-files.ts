import { link, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { IndexEntry } from '../../model/article.ts'
import { detailFile } from '../../post-index/edge-files.ts'
import { detailBytes } from '../../post-index/detail-body.ts'
import { forEachLimited } from './limited.ts'

/** A published article, as the edge files need it. */
export interface EdgeArticle {
  slug: string
  /** Its source and the code that lays out its answer are the previous build's: the file can be linked unread. */
  unchanged: boolean
  /** Its post index entry, built on demand: it reads the markdown. */
  entry(): Promise<IndexEntry>
}

/**
 * Writes each article's detail response into `buildDir` as the file the edge serves
 * (post-index/edge-files.ts). A file whose bytes are the previous build's is linked
 * from it, which keeps its mtime and so its validators; a changed one is written anew, its mtime
 * moved past the previous file's by at least a second so that its ETag changes too.
 */
export async function writeEdgeFiles(
  buildDir: string,
  articles: readonly EdgeArticle[],
  baseUrl: string,
  previousDir: string | undefined,
  concurrency: number,
): Promise<void> {
  // The folder exists even with no article: later swaps of the same build link it as it is.
  await mkdir(dirname(detailFile(buildDir, 'a')), { recursive: true })
  await forEachLimited(articles, concurrency, async (a) => {
    const target = detailFile(buildDir, a.slug)
    const previous = previousDir === undefined ? undefined : detailFile(previousDir, a.slug)
    if (previous && a.unchanged && (await linked(previous, target))) return
    const { markdown, ...meta } = await a.entry()
    const bytes = detailBytes(meta, Buffer.from(JSON.stringify(markdown)), baseUrl)
    const before = previous ? await readFile(previous).catch(() => undefined) : undefined
    if (before?.equals(bytes) && (await linked(previous!, target))) return
    await writeFile(target, bytes)
    if (!before) return
    const previousSeconds = Math.floor((await stat(previous!)).mtimeMs / 1000)
    if (Math.floor((await stat(target)).mtimeMs / 1000) <= previousSeconds)
      await utimes(target, previousSeconds + 1, previousSeconds + 1)
  })
}

/** Links `from` to `to`; false when `from` is gone. */
async function linked(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to)
    return true
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw e
  }
}
