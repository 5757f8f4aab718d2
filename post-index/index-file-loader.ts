/**
 * Loads the post index a build wrote: reads and checks the entries file line by line into the
 * index's builder, checks the bodies file against it and keeps it open for the details. A bad
 * index fails here, naming the file, the entry and the field.
 */
import { closeSync, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs'
import { basename, join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import type { IndexEntry } from '../model/article.ts'
import { detailSize } from './detail-body.ts'
import { detailFileTimeSteps } from './edge-files.ts'
import { FileBodies, SPAN, readFully } from './file-bodies.ts'
import { EntryLine, FORMAT, Header, INDEX_FILES, INDEX_FORMAT_VERSION, parseJson, validate } from './index-file.ts'
import type { PostIndex } from './post-index.ts'
import type { PostIndexState } from './index-state.ts'
import { postIndexBuilder } from './post-index-builder.ts'
import { postIndexFrom } from './post-index-queries.ts'
import { runInSlices, runNow, type Steps } from './steps.ts'

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

/**
 * Reads, validates and prepares the post index the build wrote into `buildDir`, in slices
 * (steps.ts): a server loading a new build's index answers requests meanwhile.
 */
export async function loadIndexFile(
  buildDir: string,
  baseUrl: string,
  options: { sliceMs?: number } = {},
): Promise<PostIndex> {
  // Read through the link once: the files and the build's name then come from one build, even
  // if a newer one is swapped in meanwhile.
  const dir = resolvedBuildDir(buildDir)
  const state = await runInSlices(indexStateSteps(dir, baseUrl), options.sliceMs)
  return Object.assign(postIndexFrom(state), { build: basename(dir) })
}

/** loadIndexFile in one step: for tests and tools that load before anything else runs. */
export function loadIndexFileSync(buildDir: string, baseUrl: string): PostIndex {
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
  return runNow(indexStateSteps(buildDir, baseUrl))
}

function indexStateSteps(buildDir: string, baseUrl: string): Steps<PostIndexState> {
  const builder = postIndexBuilder(baseUrl)
  return indexFileSteps(
    buildDir,
    ({ body: _body, text: _text, refs: _refs, ...meta }) => builder.add(meta),
    function* (bodies) {
      const state = builder.finishState(bodies)
      yield
      const detailFileMs = yield* detailFileTimeSteps(buildDir, state.slugs, (i) => detailSize(state, i))
      return { ...state, detailFileMs }
    },
  )
}

/**
 * The entries of the post index in `buildDir`, bodies included (for tests and tools: it decodes
 * every body).
 */
export function readIndexEntries(buildDir: string): IndexEntry[] {
  const lines: EntryLine[] = []
  return runNow(
    indexFileSteps(
      buildDir,
      (line) => lines.push(line),
      function* (bodies) {
        try {
          return lines.map(({ body: _body, text: _text, refs: _refs, ...meta }, i) => {
            const literal = Buffer.allocUnsafe(bodies.length(i))
            bodies.copy(i, literal, 0)
            const refs = Buffer.allocUnsafe(bodies.referencesLength(i))
            bodies.copyReferences(i, refs, 0)
            const references = refs.length ? { references: JSON.parse(refs.toString('utf8')) } : {}
            return { ...meta, ...references, markdown: JSON.parse(literal.toString('utf8')) as string }
          })
        } finally {
          bodies.close()
        }
      },
    ),
  )
}

/**
 * Reads the index in `buildDir`: checks each line and hands it to `onLine` as it goes (so that no
 * line outlives its turn unless kept), checks that every body is where its line says, then calls
 * `finish` with the bodies file, open. The site and the service are built separately, so a stale,
 * truncated or hand-edited index must fail here with the file, the entry and the field, not as
 * a 500 later.
 */
function* indexFileSteps<T>(
  buildDir: string,
  onLine: (line: EntryLine) => void,
  finish: (bodies: FileBodies) => Steps<T>,
): Steps<T> {
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
  const at = new Float64Array(SPAN * header.data.entries)
  for (let i = 1; i < rows.length; i++) {
    const where = `post index ${entriesFile}: entry ${i - 1}`
    const line = validate(EntryLine, parseJson(rows[i]!), where)
    if (seen.has(line.slug)) throw new Error(`${where}: slug "${line.slug}" appears twice`)
    seen.add(line.slug)
    for (const field of ['body', 'text', 'refs'] as const)
      if (line[field][0] + line[field][1] > bodiesBytes)
        throw new Error(
          `${where} ("${line.slug}"): ${field}: ends past the bodies file (${bodiesBytes} bytes); ${rebuild}`,
        )
    at.set(line.body, SPAN * (i - 1))
    at.set(line.text, SPAN * (i - 1) + 2)
    at.set(line.refs, SPAN * (i - 1) + 4)
    try {
      onLine(line)
    } catch (e) {
      throw new Error(`${where} ("${line.slug}"): ${(e as Error).message}; ${rebuild}`, { cause: e })
    }
    if (i % STEP === 0) yield
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
    // Longer is fine: a later build of the same configuration appends its bodies to the file.
    if (size < bodiesBytes)
      throw new Error(`post index ${bodiesFile}: ${size} bytes where ${entriesFile} says ${bodiesBytes}; ${rebuild}`)
    // A body is a string literal, its text form that literal escaped: anything else means the two
    // files do not belong together. Their ends are read, not the whole, which would read the
    // corpus at every start.
    for (let k = 0; k < at.length; k += SPAN) {
      for (const [j, what, quote] of SPANS)
        if (!endsWith(fd, at[k + j]!, at[k + j + 1]!, quote))
          throw new Error(`post index ${bodiesFile}: the ${what} at ${at[k + j]} is not a JSON string; ${rebuild}`)
      // References are an array, or none.
      if (at[k + 5]! > 0 && !bracketed(fd, at[k + 4]!, at[k + 5]!))
        throw new Error(`post index ${bodiesFile}: the references at ${at[k + 4]} are not a JSON array; ${rebuild}`)
      if ((k / SPAN) % STEP === STEP - 1) yield
    }
  } catch (e) {
    closeSync(fd)
    throw e
  }
  return yield* finish(new FileBodies(fd, bodiesFile, at))
}

/** Entries between two steps (steps.ts): a step is well under a millisecond. */
const STEP = 64

const LITERAL_QUOTE = Buffer.from('"')
const TEXT_QUOTE = Buffer.from('\\"')
const SPANS = [
  [0, 'body', LITERAL_QUOTE],
  [2, 'escaped body', TEXT_QUOTE],
] as const

/** Whether the `length` bytes at `offset` begin with `[` and end with `]`. */
function bracketed(fd: number, offset: number, length: number): boolean {
  const two = Buffer.alloc(2)
  return readFully(fd, two, 0, 1, offset) === 1 && readFully(fd, two, 1, 1, offset + length - 1) === 1
    ? two.toString('latin1') === '[]'
    : false
}
const ends = Buffer.alloc(4)

/** Whether the `length` bytes at `offset` in the file begin and end with `quote`. */
function endsWith(fd: number, offset: number, length: number, quote: Buffer): boolean {
  const n = quote.length
  return (
    readFully(fd, ends, 0, n, offset) === n &&
    readFully(fd, ends, n, n, offset + length - n) === n &&
    quote.equals(ends.subarray(0, n)) &&
    quote.equals(ends.subarray(n, 2 * n))
  )
}
