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

/** Margin for coarse file timestamps: up to 2 s on some file systems (FAT), a clock tick on most. */
export const RACY_MS = 3000

/** What the build compares of a file's stat: size, mtime, ctime and inode. */
export type FileStat = Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>

/** What the build compares: size, mtime, ctime and inode. */
export function statSignature(s: FileStat): string {
  return `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`
}

/** The signature to record for a file scanned at `scannedAt` (ms), or undefined when it is racy. */
export function recordableSignature(s: FileStat, scannedAt: number): string | undefined {
  return Math.max(s.mtimeMs, s.ctimeMs) < scannedAt - RACY_MS ? statSignature(s) : undefined
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
}

/** One listing of CONTENT_DIR and a stat of each article file. */
export function scanContent(contentDir: string): ContentScan {
  const scannedAt = Date.now()
  const entries = readdirSync(contentDir, { withFileTypes: true })
  const names = articleFilesOf(entries)
  const stats = new Map<string, FileStat>()
  for (const name of names) {
    const s = statSync(join(contentDir, name), { throwIfNoEntry: false })
    if (s) stats.set(name, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino })
  }
  return { names, stats, scannedAt, references: referenceFilesOf(contentDir, entries) }
}
const REFERENCE_FILE = /\.(bib|json|csl)$/
