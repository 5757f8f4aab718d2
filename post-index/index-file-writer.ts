/**
 * Writes the post index into a build folder, in the format of index-file.ts: the build's side of
 * the file; the service only loads it (index-file-loader.ts).
 */
import { readFileSync, statSync } from 'node:fs'
import { link, open, rename, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { IndexEntry } from '../model/article.ts'
import { FORMAT, INDEX_FILES, INDEX_FORMAT_VERSION, validateEntry } from './index-file.ts'
import { referencesJson } from './detail-body.ts'
import { jsonTextOf } from './json-text.ts'
import { compareEntries } from './post-index.ts'
import { eachLine, lineEnd, LineChunks, writeBytesSync } from './line-file.ts'

/** How many body bytes go to the file per write. */
const WRITE_BATCH_BYTES = 1 << 20
/** How many bytes of a previous bodies file are copied per read. */
const COPY_BYTES = 4 << 20

/**
 * A line of a previous index file of the same format, checked when it was written, and kept as
 * its bytes: at 50,000 articles, parsing every line and writing it again cost an edit most of a
 * second, and decoding the file into one string and joining the lines again most of the rest.
 * The writer begins each line with its slug and ends it with the bodies' places (entryLine),
 * which is all a kept line is read for.
 */
export interface KeptLine {
  /** The line as the previous index file has it (a view of the file's bytes, no newline). */
  bytes: Uint8Array
  /** Where its `"body":` begins (a byte offset): the line before it is the entry's fields, followed by a comma. */
  head: number
  /** The places of its body, its text and its references in the previous bodies file, [offset, length]. */
  body: readonly [number, number]
  text: readonly [number, number]
  refs: readonly [number, number]
}

/**
 * An entry kept from a previous index file (KeptLine), whose body is at the previous bodies
 * file's offsets: its body is copied, not parsed. `date` is the entry's (the index's order).
 */
export interface KeptEntry {
  kept: KeptLine
  slug: string
  date: string
}

/** An entry line as the writer writes it: its slug first, the bodies' places last. */
function entryLine(
  meta: Omit<IndexEntry, 'markdown' | 'references'>,
  body: readonly [number, number],
  textLength: number,
  refsLength: number,
): string {
  const { slug, ...rest } = meta
  const fields = JSON.stringify({ slug, ...rest })
  return `${fields.slice(0, -1)},${places(body, textLength, refsLength)}`
}

/** The end of an entry line: the places of a body, of its text and of its references, which follow it. */
const places = ([offset, length]: readonly [number, number], textLength: number, refsLength: number) =>
  `"body":[${offset},${length}],"text":[${offset + length},${textLength}],` +
  `"refs":[${offset + length + textLength},${refsLength}]}`

const QUOTE = 0x22
const SLUG_START = Buffer.from('{"slug":"')
const PLACES_START = Buffer.from('"body":[')
const PLACES = /^"body":\[(\d+),(\d+)\],"text":\[(\d+),(\d+)\],"refs":\[(\d+),(\d+)\]\}$/

/**
 * A line of an index file this writer wrote, bytes [start, end) of `file`, read for its slug and
 * places (KeptLine); else undefined. The places are the line's last `"body":[` to its end.
 */
function keptLine(file: Buffer, start: number, end: number): { slug: string; kept: KeptLine } | undefined {
  const slugStart = start + SLUG_START.length
  // Slugs are lowercase words joined by hyphens (model/article.ts): nothing in them is escaped.
  const slugEnd = file.subarray(start, slugStart).equals(SLUG_START) ? file.indexOf(QUOTE, slugStart) : -1
  const head = file.lastIndexOf(PLACES_START, end - PLACES_START.length)
  if (slugEnd < 0 || slugEnd >= end || head < slugEnd) return undefined
  const found = PLACES.exec(file.toString('latin1', head, end))
  if (!found) return undefined
  return {
    slug: file.toString('latin1', slugStart, slugEnd),
    kept: {
      bytes: file.subarray(start, end),
      head: head - start,
      body: [Number(found[1]), Number(found[2])],
      text: [Number(found[3]), Number(found[4])],
      refs: [Number(found[5]), Number(found[6])],
    },
  }
}

/**
 * The entry lines of the index in `buildDir` by slug, unchecked (the build wrote them), or
 * undefined when there is none of this format, or a line not as this writer lays it out: then
 * nothing is kept.
 */
export function keptEntries(buildDir: string): Map<string, KeptLine> | undefined {
  let file: Buffer
  try {
    file = readFileSync(join(buildDir, INDEX_FILES.entries))
  } catch {
    return undefined
  }
  const firstEnd = lineEnd(file, 0)
  const header = JSON.parse(file.toString('utf8', 0, firstEnd)) as { format?: string; version?: number }
  if (header.format !== FORMAT || header.version !== INDEX_FORMAT_VERSION) return undefined
  const kept = new Map<string, KeptLine>()
  const whole = eachLine(file, firstEnd + 1, (start, end) => {
    const read = keptLine(file, start, end)
    if (read) kept.set(read.slug, read.kept)
    return read !== undefined
  })
  if (!whole) return undefined
  return kept
}

/**
 * Whether a build may append its new bodies to the previous bodies file (`append` of
 * writeIndexFile) rather than copy the kept ones into a new file: while the bodies no index
 * points to any more (those of edited and removed articles, and what a killed build appended)
 * are at most as many bytes as the bodies the previous index points to. Past that, the file is
 * written anew, compact: the copy's cost is spread over as many edits as made it twice as large.
 */
export function appendable(previousBodies: string, kept: ReadonlyMap<string, KeptLine>): boolean {
  let live = 0
  for (const line of kept.values()) live += line.body[1] + line.text[1] + line.refs[1]
  const size = statSync(previousBodies, { throwIfNoEntry: false })?.size
  return size !== undefined && live > 0 && size <= 2 * live
}

/**
 * Writes the post index into `buildDir` (entries newest first), checking each entry against the
 * article schema first. Each file is written beside its final name and renamed into place, the
 * entries file last, so a reader that sees it sees the bodies it points into. An array is put in
 * order here; entries that arrive one at a time (the build reads each body as it writes it) must
 * arrive in order. Kept entries (KeptEntry) copy their bodies from `previousBodies`, in runs.
 *
 * With `append`, the bodies file is `previousBodies` itself, linked: the new bodies are appended
 * to it and kept entries point where they were, so an edit writes its own bodies only. Readers of
 * a previous index are unaffected, as every byte it points to stays where it is (the loader
 * accepts a bodies file longer than its index says); a build killed while it appends leaves bytes
 * no index points to (see appendable).
 */
export async function writeIndexFile(
  buildDir: string,
  entries: readonly IndexEntry[] | AsyncIterable<IndexEntry | KeptEntry>,
  previousBodies?: string,
  options: { append?: boolean } = {},
): Promise<void> {
  const lines = new LineChunks()
  const bodiesFile = join(buildDir, INDEX_FILES.bodies)
  const append = options.append === true && previousBodies !== undefined
  if (append) await link(previousBodies, bodiesFile)
  const bodies = await open(append ? bodiesFile : `${bodiesFile}.tmp`, append ? 'a' : 'w')
  const previous = previousBodies === undefined || append ? undefined : await open(previousBodies, 'r')
  let offset = append ? (await bodies.stat()).size : 0
  try {
    let batch: Buffer[] = []
    let batchBytes = 0
    // The previous file's bytes still to copy, [start, end): consecutive kept bodies are one run.
    let run: [number, number] | undefined
    const flushBatch = async () => {
      await bodies.writev(batch)
      batch = []
      batchBytes = 0
    }
    const flushRun = async () => {
      if (run) await copyRange(previous!, bodies, run[0], run[1])
      run = undefined
    }
    const seen = new Set<string>()
    let i = 0
    let last: { slug: string; date: string } | undefined
    for await (const item of Array.isArray(entries) ? [...entries].sort(compareEntries) : entries) {
      const kept = 'kept' in item ? item : undefined
      const meta = kept ?? validateEntry(item, `post index entry ${i}`)
      if (seen.has(meta.slug)) throw new Error(`post index entry ${i}: slug "${meta.slug}" appears twice`)
      if (last && compareEntries(last, meta) > 0)
        throw new Error(`post index entry ${i}: "${meta.slug}" comes before "${last.slug}" in the index's order`)
      seen.add(meta.slug)
      last = { slug: meta.slug, date: meta.date }
      i++
      if (kept && append) {
        lines.addHeld(kept.kept.bytes)
        lines.end()
        continue
      }
      if (kept) {
        if (!previous) throw new Error(`post index entry ${i}: kept, with no previous bodies file`)
        const { bytes, head, body, text, refs } = kept.kept
        // A body, its escaped text and its references, each copied as a range: consecutive ones make one run.
        for (const [at, length] of [body, text, refs]) {
          if (length === 0) continue
          if (run && run[1] === at) run[1] += length
          else {
            await flushBatch()
            await flushRun()
            run = [at, at + length]
          }
        }
        lines.addHeld(bytes.subarray(0, head))
        lines.add(places([offset, body[1]], text[1], refs[1]))
        lines.end()
        offset += body[1] + text[1] + refs[1]
        continue
      }
      await flushRun()
      const { markdown, references: _references, ...fields } = meta as IndexEntry
      const literal = Buffer.from(JSON.stringify(markdown))
      const text = jsonTextOf(literal)
      const refs = referencesJson(meta as IndexEntry)
      lines.add(entryLine(fields, [offset, literal.length], text.length, refs.length))
      lines.end()
      offset += literal.length + text.length + refs.length
      batch.push(literal, text, refs)
      batchBytes += literal.length + text.length + refs.length
      if (batchBytes >= WRITE_BATCH_BYTES) await flushBatch()
    }
    await flushBatch()
    await flushRun()
  } finally {
    await bodies.close()
    await previous?.close()
  }
  if (!append) await rename(`${bodiesFile}.tmp`, bodiesFile)
  const header = JSON.stringify({
    format: FORMAT,
    version: INDEX_FORMAT_VERSION,
    entries: lines.count,
    bodiesBytes: offset,
  })
  const entriesFile = join(buildDir, INDEX_FILES.entries)
  writeBytesSync(`${entriesFile}.tmp`, [Buffer.from(`${header}\n`), ...lines.buffers()])
  await rename(`${entriesFile}.tmp`, entriesFile)
}

/** Appends bytes [start, end) of `from` to `to`; a previous file shorter than its lines say is an error. */
export async function copyRange(from: FileHandle, to: FileHandle, start: number, end: number): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(COPY_BYTES, end - start))
  for (let at = start; at < end; ) {
    const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, end - at), at)
    if (bytesRead === 0) throw new Error(`the previous post index's bodies end at ${at}, before ${end}`)
    await to.write(buffer, 0, bytesRead)
    at += bytesRead
  }
}
