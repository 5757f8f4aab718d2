import { readFileSync, watchFile, unwatchFile, type Stats } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { IndexEntry } from '../../model/article.ts'
import { createPostIndex, type PostIndex } from './post-index.ts'

/** The post index inside a build folder: `{"version": 1, "posts": [IndexEntry, ...]}`. */
const INDEX_FILE = 'post-index.json'
const FORMAT_VERSION = 1

/**
 * Writes the post index into `buildDir` for the service (entries newest first). The file appears
 * whole or not at all: it is written beside its final name and renamed.
 */
export async function writeIndexFile(buildDir: string, entries: readonly IndexEntry[]): Promise<void> {
  const file = join(buildDir, INDEX_FILE)
  await writeFile(`${file}.tmp`, JSON.stringify({ version: FORMAT_VERSION, posts: entries }))
  await rename(`${file}.tmp`, file)
}

/**
 * Reads and validates the entries of the post index in `buildDir`. The site and the service are
 * built separately, so a stale or hand-edited file must fail loudly here, naming the file, the
 * entry and the field, not as a 500 later.
 */
export function readIndexEntries(buildDir: string): IndexEntry[] {
  const file = join(buildDir, INDEX_FILE)
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (typeof data !== 'object' || data === null || !('version' in data) || data.version !== FORMAT_VERSION || !('posts' in data) || !Array.isArray(data.posts))
    throw new Error(`post index ${file}: expected {"version": ${FORMAT_VERSION}, "posts": [...]}; rebuild with "npm run build"`)
  const seen = new Set<string>()
  return data.posts.map((raw: unknown, i: number) => {
    const entry = validateEntry(raw, `post index ${file}: entry ${i}`)
    if (seen.has(entry.slug)) throw new Error(`post index ${file}: entry ${i}: slug "${entry.slug}" appears twice`)
    seen.add(entry.slug)
    return entry
  })
}

/** One entry checked against the article schema; the error names the entry and every bad field. */
export function validateEntry(raw: unknown, at: string): IndexEntry {
  const parsed = IndexEntry.safeParse(raw)
  if (parsed.success) return parsed.data
  const slug = typeof raw === 'object' && raw !== null && 'slug' in raw && typeof raw.slug === 'string' ? ` ("${raw.slug}")` : ''
  const problems = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'entry'}: ${issue.message}`)
  throw new Error(`${at}${slug}: ${problems.join('; ')}`, { cause: parsed.error })
}

/** Reads, validates and prepares the post index the build wrote into `buildDir`. */
export async function loadIndexFile(buildDir: string, baseUrl: string): Promise<PostIndex> {
  return loadIndexFileSync(buildDir, baseUrl)
}

/** loadIndexFile, in one step: for tests and tools that load before anything else runs. */
export function loadIndexFileSync(buildDir: string, baseUrl: string): PostIndex {
  return createPostIndex(readIndexEntries(buildDir), baseUrl)
}

/**
 * Reloads the index when a build swaps in a new one (scripts/build.ts renames the `current`
 * link, so the path's inode changes). Polls with stat, which sees through the link and works on
 * every filesystem and inside containers. A bad new file keeps the old index serving.
 */
export function watchIndexFile(
  buildDir: string,
  baseUrl: string,
  onLoad: (index: PostIndex) => void,
  onError: (error: unknown) => void,
  intervalMs = 1000,
): () => void {
  const file = join(buildDir, INDEX_FILE)
  let loading: Promise<void> = Promise.resolve()
  const changed = (curr: Stats, prev: Stats) =>
    curr.ino !== prev.ino || curr.mtimeMs !== prev.mtimeMs || curr.size !== prev.size
  const listener = (curr: Stats, prev: Stats) => {
    if (curr.nlink === 0 || !changed(curr, prev)) return
    loading = loading.then(() => loadIndexFile(buildDir, baseUrl).then(onLoad, onError))
  }
  watchFile(file, { interval: intervalMs, persistent: false }, listener)
  return () => unwatchFile(file, listener)
}
