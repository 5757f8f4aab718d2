/**
 * Stat-based change detection for the article files, the rule of git's index
 * (https://git-scm.com/docs/racy-git): a file whose size, mtime, ctime and inode are those the
 * live build recorded is taken as unchanged, and neither read nor hashed. ctime cannot be set
 * from user space, so an edit that keeps the size and puts the mtime back (`touch -d`) still
 * shows. A file changed within RACY_MS of the scan that recorded it could share its timestamps
 * with an edit made just after (file timestamps tick coarsely), so its stat is not recorded and
 * the next build reads it again. The rule is in docs/architecture.md (the build).
 */
import { type Dirent, readdirSync, statSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'

/** Margin for coarse file timestamps: up to 2 s on some file systems (FAT), a clock tick on most. */
export const RACY_MS = 3000

/** What the build compares of a file's stat: size, mtime, ctime and inode. */
export type FileStat = Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>

/** What the build compares: size, mtime, ctime and inode. */
export function statSignature(s: FileStat): string {
  return `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`
}

/** Whether the stat of a file scanned at `scannedAt` (ms) may be recorded: it is not racy. */
export function isRecordable(s: FileStat, scannedAt: number): boolean {
  return Math.max(s.mtimeMs, s.ctimeMs) < scannedAt - RACY_MS
}

/** The signature to record for a file scanned at `scannedAt` (ms), or undefined when it is racy. */
export function recordableSignature(s: FileStat, scannedAt: number): string | undefined {
  return isRecordable(s, scannedAt) ? statSignature(s) : undefined
}

/** The About page's file in CONTENT_DIR (scripts/builder/about-page.ts): not an article. */
export const ABOUT_FILE = 'about.md'

/** The article files of CONTENT_DIR (`*.md`, flat, but ABOUT_FILE), sorted by name. */
function articleFilesOf(entries: readonly Dirent[]): string[] {
  return entries
    .filter((e) => e.name.endsWith('.md') && e.name !== ABOUT_FILE && (e.isFile() || e.isSymbolicLink()))
    .map((e) => e.name)
    .sort()
}

/**
 * The bibliographies and styles in CONTENT_DIR and its folders (the articles are flat, so the
 * folders are few and small), for the fingerprint that tells `npm start` to build again.
 */
function referenceFilesOf(contentDir: string, entries: readonly Dirent[]): string[] {
  const out: string[] = []
  for (const e of entries) {
    if (e.isFile() && REFERENCE_FILE.test(e.name)) out.push(e.name)
    else if (e.isDirectory() && !e.name.startsWith('.'))
      for (const f of readdirSync(join(contentDir, e.name), { recursive: true }) as string[])
        if (REFERENCE_FILE.test(f)) out.push(join(e.name, f))
  }
  return out.sort()
}

/** A content folder as the build sees it: its article files with their stats, and its reference files. */
export interface ContentScan {
  /** The article files (`*.md`, flat, but ABOUT_FILE), sorted by name. */
  names: string[]
  /** Each article file's stat, by name (none for a file gone since the listing). */
  stats: Map<string, FileStat>
  /** When the scan began (recordableSignature). */
  scannedAt: number
  /** The bibliographies and styles, in the folder and its sub-folders. */
  references: string[]
  /** How many files were stat'ed, when a watch vouched for the others' stats (builder-service/content-watch.ts). */
  restated?: number
}

/** One listing of CONTENT_DIR and a stat of each article file. */
export function scanContent(contentDir: string): ContentScan {
  const listing = listContent(contentDir)
  return { ...listing, stats: unpackStats(listing.names, statFiles(contentDir, listing.names)) }
}

/** A content folder's scan without the stats, which statContent takes. */
export type ContentListing = Omit<ContentScan, 'stats'>

/** One listing of CONTENT_DIR. */
export function listContent(contentDir: string): ContentListing {
  const scannedAt = Date.now()
  const entries = readdirSync(contentDir, { withFileTypes: true })
  return { names: articleFilesOf(entries), scannedAt, references: referenceFilesOf(contentDir, entries) }
}

/** From this many files, statContent stats them in a thread of its own. */
export const STAT_ASIDE_FILES = 5000

/**
 * The stat of each file of a listing. Of many files, in a thread of its own (scan-worker.ts), so
 * that this thread can read the live build's state meanwhile: at 50,000 articles each took about
 * half a second on a slow machine. When this thread has nothing to read (a warm builder's build,
 * scripts/builder-service/), it stats the second half itself while the thread stats the first.
 * A thread that cannot start leaves its part to this one.
 */
export async function statContent(
  contentDir: string,
  listing: ContentListing,
  { shareHere = false } = {},
): Promise<ContentScan> {
  const { names } = listing
  if (names.length < STAT_ASIDE_FILES) return { ...listing, stats: unpackStats(names, statFiles(contentDir, names)) }
  const split = shareHere ? Math.floor(names.length / 2) : names.length
  const aside = statInWorker(contentDir, names.slice(0, split)).catch(() => undefined)
  const here = statFiles(contentDir, names.slice(split))
  const first = (await aside) ?? statFiles(contentDir, names.slice(0, split))
  const packed = new Float64Array(names.length * 4)
  packed.set(first)
  packed.set(here, split * 4)
  return { ...listing, stats: unpackStats(names, packed) }
}

/** statFiles in a thread of its own (scan-worker.ts). */
export function statInWorker(contentDir: string, names: readonly string[]): Promise<Float64Array> {
  return new Promise((resolve, reject) => {
    // A heap for 50,000 names and their stats, twice over (resourceLimits: the plan bounds every thread).
    const worker = new Worker(new URL('./scan-worker.ts', import.meta.url), {
      workerData: { contentDir, names },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    })
    worker.once('message', (packed: Float64Array) => resolve(packed))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the stat thread exited with ${code}`)))
  })
}

/** Per name, its size, mtime, ctime and inode, in that order; NaN for a file gone since the listing. */
export function statFiles(contentDir: string, names: readonly string[]): Float64Array<ArrayBuffer> {
  const packed = new Float64Array(names.length * 4)
  names.forEach((name, i) => {
    const s = statSync(join(contentDir, name), { throwIfNoEntry: false })
    packed.set(s ? [s.size, s.mtimeMs, s.ctimeMs, s.ino] : [NaN, NaN, NaN, NaN], i * 4)
  })
  return packed
}

/** statFiles' packed stats by name; a file gone since the listing has none. */
export function unpackStats(names: readonly string[], packed: Float64Array): Map<string, FileStat> {
  const stats = new Map<string, FileStat>()
  names.forEach((name, i) => {
    const at = i * 4
    if (!Number.isNaN(packed[at]))
      stats.set(name, { size: packed[at]!, mtimeMs: packed[at + 1]!, ctimeMs: packed[at + 2]!, ino: packed[at + 3]! })
  })
  return stats
}
const REFERENCE_FILE = /\.(bib|json|csl)$/
