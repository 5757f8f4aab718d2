/**
 * Writes the post index into a build folder, in the format of index-file.ts: the build's side of
 * the file; the service only loads it (index-file-loader.ts).
 */
import { open, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { IndexEntry } from '../model/article.ts'
import { FORMAT, INDEX_FILES, INDEX_FORMAT_VERSION, validateEntry } from './index-file.ts'
import { jsonTextOf } from './json-text.ts'
import { compareEntries } from './post-index.ts'

/** How many body bytes go to the file per write. */
const WRITE_BATCH_BYTES = 1 << 20

/**
 * Writes the post index into `buildDir` (entries newest first), checking each entry against the
 * article schema first. Each file is written beside its final name and renamed into place, the
 * entries file last, so a reader that sees it sees the bodies it points into. An array is put in
 * order here; entries that arrive one at a time (the build reads each body as it writes it) must
 * arrive in order.
 */
export async function writeIndexFile(
  buildDir: string,
  entries: readonly IndexEntry[] | AsyncIterable<IndexEntry>,
): Promise<void> {
  const lines: string[] = []
  const bodiesFile = join(buildDir, INDEX_FILES.bodies)
  const bodies = await open(`${bodiesFile}.tmp`, 'w')
  let offset = 0
  try {
    let batch: Buffer[] = []
    let batchBytes = 0
    const seen = new Set<string>()
    let i = 0
    let last: IndexEntry | undefined
    for await (const entry of Array.isArray(entries) ? [...entries].sort(compareEntries) : entries) {
      const { markdown, ...meta } = validateEntry(entry, `post index entry ${i}`)
      if (seen.has(meta.slug)) throw new Error(`post index entry ${i}: slug "${meta.slug}" appears twice`)
      if (last && compareEntries(last, entry) > 0)
        throw new Error(`post index entry ${i}: "${meta.slug}" comes before "${last.slug}" in the index's order`)
      seen.add(meta.slug)
      last = entry
      i++
      const literal = Buffer.from(JSON.stringify(markdown))
      const text = jsonTextOf(literal)
      lines.push(
        JSON.stringify({ ...meta, body: [offset, literal.length], text: [offset + literal.length, text.length] }),
      )
      offset += literal.length + text.length
      batch.push(literal, text)
      batchBytes += literal.length + text.length
      if (batchBytes >= WRITE_BATCH_BYTES) {
        await bodies.writev(batch)
        batch = []
        batchBytes = 0
      }
    }
    await bodies.writev(batch)
  } finally {
    await bodies.close()
  }
  await rename(`${bodiesFile}.tmp`, bodiesFile)
  const header = JSON.stringify({
    format: FORMAT,
    version: INDEX_FORMAT_VERSION,
    entries: lines.length,
    bodiesBytes: offset,
  })
  const entriesFile = join(buildDir, INDEX_FILES.entries)
  const handle = await open(`${entriesFile}.tmp`, 'w')
  try {
    await handle.writeFile(`${[header, ...lines].join('\n')}\n`)
  } finally {
    await handle.close()
  }
  await rename(`${entriesFile}.tmp`, entriesFile)
}
