import { close, closeSync, fstatSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { z } from 'zod'
import { IndexEntry } from '../model/article.ts'
import { detailFileTimes } from './edge-files.ts'
import { type BodySource, detailSize } from './detail-body.ts'
import { compareEntries, type PostIndex } from './post-index.ts'
import { postIndexBuilder, type PostIndexState } from './post-index-builder.ts'
import { postIndexFrom } from './post-index-queries.ts'

/**
 * The post index in a build folder is two files:
 *
 * - `post-index.bodies`: every article's markdown as a JSON string literal (UTF-8, quotes
 *   included), one after the other, nothing between;
 * - `post-index.ndjson`, written last: a header line, then one line per article (newest first)
 *   with its index entry minus the markdown, plus `body: [offset, length]` in the bodies file.
 *
 * Loading parses only the small lines and keeps the bodies file open: a detail reads its body
 * from the file when asked for (FileBodies), never parsed or held, so the service's memory does
 * not grow with the corpus and the OS's page cache is the bodies' cache.
 */
export const INDEX_FILES = { entries: 'post-index.ndjson', bodies: 'post-index.bodies' } as const
/** Changes whenever the layout does; a build of another format is refused, asking for a rebuild. */
export const INDEX_FORMAT_VERSION = 2
const FORMAT = 'lattice-post-index'

const Header = z.object({
  format: z.literal(FORMAT),
  version: z.literal(INDEX_FORMAT_VERSION),
  entries: z.int().min(0),
  bodiesBytes: z.int().min(0),
})
const EntryLine = IndexEntry.omit({ markdown: true }).extend({
  body: z.tuple([z.int().min(0), z.int().min(2)]),
})
type EntryLine = z.infer<typeof EntryLine>

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
      lines.push(JSON.stringify({ ...meta, body: [offset, literal.length] }))
      offset += literal.length
      batch.push(literal)
      batchBytes += literal.length
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

/**
 * Keeps V8's young generation at its starting size for the life of the process. Loading an index
 * allocates briskly; left to its default, V8 grows the young generation to 64 MB then and keeps
 * it, which is most of what the service may hold beyond its index. Answers are prepared bodies,
 * or a detail read into a Buffer off the heap, so requests allocate little on it and lose
 * nothing by it. Call once, early, in the process's entry.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1')
}

/** Reads, validates and prepares the post index the build wrote into `buildDir`. */
export async function loadIndexFile(buildDir: string, baseUrl: string): Promise<PostIndex> {
  return loadIndexFileSync(buildDir, baseUrl)
}

/** loadIndexFile in one step: for tests and tools that load before anything else runs. */
export function loadIndexFileSync(buildDir: string, baseUrl: string): PostIndex {
  // Read through the link once: the files and the build's name then come from one build, even
  // if a newer one is swapped in meanwhile.
  const dir = resolvedBuildDir(buildDir)
  return Object.assign(postIndexFrom(readIndexState(dir, baseUrl)), { build: basename(dir) })
}

function resolvedBuildDir(buildDir: string): string {
  try {
    return realpathSync(buildDir)
  } catch {
    return buildDir // reading it says what is wrong
  }
}

/** The post index in `buildDir` read into its finished state, its bodies left in the file. */
export function readIndexState(buildDir: string, baseUrl: string): PostIndexState {
  const builder = postIndexBuilder(baseUrl)
  return readIndexFiles(
    buildDir,
    ({ body: _body, ...meta }) => builder.add(meta),
    (bodies) => {
      const state = builder.finishState(bodies)
      return { ...state, detailFileMs: detailFileTimes(buildDir, state.slugs, (i) => detailSize(state, i)) }
    },
  )
}

/** The entries of the post index in `buildDir`, bodies included (for tests and tools: it decodes every body). */
export function readIndexEntries(buildDir: string): IndexEntry[] {
  const lines: EntryLine[] = []
  return readIndexFiles(
    buildDir,
    (line) => lines.push(line),
    (bodies) => {
      try {
        return lines.map(({ body: _body, ...meta }, i) => {
          const literal = Buffer.allocUnsafe(bodies.length(i))
          bodies.copy(i, literal, 0)
          return { ...meta, markdown: JSON.parse(literal.toString('utf8')) as string }
        })
      } finally {
        bodies.close()
      }
    },
  )
}

/**
 * The bodies file of a loaded index, read on demand: post i's literal is `length` bytes at
 * `offset` (`at[2i]`, `at[2i + 1]`). The descriptor is opened at load and kept while the index
 * can read through it, since a later build may prune (unlink) the build folder meanwhile and an
 * open descriptor keeps the file readable. It is closed when this object is collected, never
 * before: a closed descriptor's number is reused, and a read through it would read another file.
 * So the index calls it through this object, whose private fields no detached method can reach.
 */
class FileBodies implements BodySource {
  static readonly #closeOnCollect = new FinalizationRegistry<number>((fd) => close(fd, () => {}))
  readonly #fd: number
  readonly #file: string
  readonly #at: Float64Array

  constructor(fd: number, file: string, at: Float64Array) {
    this.#fd = fd
    this.#file = file
    this.#at = at
    FileBodies.#closeOnCollect.register(this, fd, this)
  }

  length(i: number): number {
    return this.#at[2 * i + 1]!
  }

  copy(i: number, target: Buffer, at: number): void {
    const offset = this.#at[2 * i]!
    const length = this.#at[2 * i + 1]!
    if (readFully(this.#fd, target, at, length, offset) !== length)
      throw new Error(`post index ${this.#file}: the body at ${offset} ends past the end of the file`)
  }

  /** Closes the file now: only for a reader that holds the only reference (readIndexEntries). */
  close(): void {
    FileBodies.#closeOnCollect.unregister(this)
    closeSync(this.#fd)
  }
}

/** Reads `length` bytes at `position` into `target` at `at`; fewer only at the end of the file. */
function readFully(fd: number, target: Buffer, at: number, length: number, position: number): number {
  let done = 0
  while (done < length) {
    const n = readSync(fd, target, at + done, length - done, position + done)
    if (n === 0) break
    done += n
  }
  return done
}

/**
 * Reads the index in `buildDir`: checks each line and hands it to `onLine` as it goes (so that no
 * line outlives its turn unless kept), checks that every body is where its line says, then calls
 * `finish` with the bodies file, open. The site and the service are built separately, so a stale,
 * truncated or hand-edited index must fail here with the file, the entry and the field, not as
 * a 500 later.
 */
function readIndexFiles<T>(buildDir: string, onLine: (line: EntryLine) => void, finish: (bodies: FileBodies) => T): T {
  const entriesFile = join(buildDir, INDEX_FILES.entries)
  const bodiesFile = join(buildDir, INDEX_FILES.bodies)
  const rebuild = 'rebuild with "npm run build"'
  let text: string
  try {
    text = readFileSync(entriesFile, 'utf8')
  } catch (e) {
    throw new Error(
      `post index ${entriesFile} cannot be read (${(e as NodeJS.ErrnoException).code ?? e}); ${rebuild}`,
      { cause: e },
    )
  }
  const rows = text.split('\n')
  if (rows[rows.length - 1] === '') rows.pop()
  const header = Header.safeParse(parseJson(rows[0] ?? ''))
  if (!header.success)
    throw new Error(`post index ${entriesFile}: not a ${FORMAT} file of version ${INDEX_FORMAT_VERSION}; ${rebuild}`, {
      cause: header.error,
    })
  if (rows.length - 1 !== header.data.entries)
    throw new Error(
      `post index ${entriesFile}: ${rows.length - 1} entries where the header says ${header.data.entries}; ${rebuild}`,
    )
  const { bodiesBytes } = header.data
  const seen = new Set<string>()
  const at = new Float64Array(2 * header.data.entries)
  for (let i = 1; i < rows.length; i++) {
    const where = `post index ${entriesFile}: entry ${i - 1}`
    const line = validate(EntryLine, parseJson(rows[i]!), where)
    if (seen.has(line.slug)) throw new Error(`${where}: slug "${line.slug}" appears twice`)
    seen.add(line.slug)
    if (line.body[0] + line.body[1] > bodiesBytes)
      throw new Error(`${where} ("${line.slug}"): body: ends past the bodies file (${bodiesBytes} bytes); ${rebuild}`)
    at.set(line.body, 2 * (i - 1))
    try {
      onLine(line)
    } catch (e) {
      throw new Error(`${where} ("${line.slug}"): ${(e as Error).message}; ${rebuild}`, { cause: e })
    }
  }

  let fd: number
  try {
    fd = openSync(bodiesFile, 'r')
  } catch (e) {
    throw new Error(`post index ${bodiesFile} cannot be read (${(e as NodeJS.ErrnoException).code ?? e}); ${rebuild}`, {
      cause: e,
    })
  }
  try {
    const size = fstatSync(fd).size
    if (size !== bodiesBytes)
      throw new Error(`post index ${bodiesFile}: ${size} bytes where ${entriesFile} says ${bodiesBytes}; ${rebuild}`)
    // A body is a string literal: anything else means the two files do not belong together. Its
    // two ends are read, not the whole, which would read the corpus at every start.
    const ends = Buffer.alloc(2)
    for (let k = 0; k < at.length; k += 2) {
      const [offset, length] = [at[k]!, at[k + 1]!]
      if (
        readFully(fd, ends, 0, 1, offset) !== 1 ||
        readFully(fd, ends, 1, 1, offset + length - 1) !== 1 ||
        ends[0] !== 0x22 ||
        ends[1] !== 0x22
      )
        throw new Error(`post index ${bodiesFile}: the body at ${offset} is not a JSON string; ${rebuild}`)
    }
  } catch (e) {
    closeSync(fd)
    throw e
  }
  return finish(new FileBodies(fd, bodiesFile, at))
}

/** One entry checked against the article schema; the error names the entry and every bad field. */
function validateEntry(raw: unknown, at: string): IndexEntry {
  return validate(IndexEntry, raw, at)
}

function validate<S extends z.ZodType>(schema: S, raw: unknown, at: string): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const slug =
    typeof raw === 'object' && raw !== null && 'slug' in raw && typeof raw.slug === 'string' ? ` ("${raw.slug}")` : ''
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.length ? issue.path.join('.') : 'entry'}: ${issue.message}`,
  )
  throw new Error(`${at}${slug}: ${problems.join('; ')}`, { cause: parsed.error })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

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
