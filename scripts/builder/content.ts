/**
 * Reads CONTENT_DIR: one `<slug>.md` per article, flat. Each file is hashed (the cache key of
 * everything derived from it) and its frontmatter validated against the one article schema.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  FRONTMATTER_FIELDS,
  Frontmatter,
  SLUG_MAX_LENGTH,
  manifestFields,
  readingMinutes,
} from '../../model/article.ts'
import { Author, Change } from '../../model/research.ts'
import { isSlug } from '../../model/slug.ts'
import { illFormedText } from '../../model/text-rules.ts'
import { BODY_MAX } from '../../model/wire-limits.ts'
import { SITE } from '../../site/lib/site.ts'
import { BuildError, type BuildProblem } from './errors.ts'
import { FRONTMATTER, readFrontMatter } from './front-matter.ts'
import { isRecordable, statSignature, type ContentScan } from './source-stats.ts'

/** Refuses a CONTENT_DIR that does not exist, before the build takes its lock. */
export function requireContentDir(contentDir: string): void {
  if (!existsSync(contentDir))
    throw new BuildError([
      {
        file: contentDir,
        message: 'CONTENT_DIR does not exist',
        fix: 'create the folder, or set CONTENT_DIR to the folder of your articles',
      },
    ])
}
import type { ManifestRecord } from '../../model/article.ts'

/** An article's metadata as the pages, the feed and the index use it, with its file's hash. */
export interface ArticleMeta extends ManifestRecord {
  /** SHA-256 of the file's bytes. */
  hash: string
  draft: boolean
  /** Dated after the build: built but not yet published (schedule.ts); absent when published. */
  scheduled?: true
  /** Files its rendering reads besides its markdown (article-inputs.ts), relative to CONTENT_DIR. */
  inputs?: string[]
  /** The works it cites, by identifier (references/cited-by.ts): set once it is rendered. */
  cites?: string[]
}

/** An article file, as the build remembers it: not its text, which is read again when needed. */
export interface SourceRef {
  slug: string
  /** File name inside CONTENT_DIR. */
  file: string
  hash: string
}

export interface SourceFile extends SourceRef {
  /** The file's text. */
  source: string
}

const FIELDS = FRONTMATTER_FIELDS.join(', ')
const NESTED_FIELDS: Record<string, string> = {
  authors: Object.keys(Author.shape).join(', '),
  changes: Object.keys(Change.shape).join(', '),
}

/** Files read at once: enough to keep the disk busy, few enough to bound open descriptors. */
const READ_CONCURRENCY = 64

/** What the live build recorded of each file: its hash under the stat signature it had (source-stats.ts). */
export interface KnownSources {
  hashOf(slug: string, signature: string): string | undefined
}

/**
 * Reads the article files of `scan` (scanContent) in order; names that are not slugs are
 * problems. A file whose stat is the one `known` recorded is not read: `onUnchanged` gets it.
 * Each other file's text is handed to `onFile` and then let go: a build holds no article's
 * text for longer than it works on it, so its memory does not grow with the corpus. Returns
 * the files, per slug the stat signature the next build may trust, and how many were read.
 */
export async function readSources(
  contentDir: string,
  scan: ContentScan,
  problems: BuildProblem[],
  onFile: (f: SourceFile) => void | Promise<void>,
  known?: KnownSources & { onUnchanged(ref: SourceRef): void },
): Promise<{ refs: SourceRef[]; signatures: Record<string, string>; read: number }> {
  const valid = scan.names.filter((file) => {
    const slug = file.slice(0, -3)
    if (isSlug(slug)) return true
    // Refused here, before anything is written: a name past the limit would fail later as a
    // file of the build (`<slug>.csl.json`) too long for the file system.
    const long = slug.length > SLUG_MAX_LENGTH
    problems.push({
      file,
      message: long
        ? `the file name is the slug and must be at most ${SLUG_MAX_LENGTH} characters (it has ${slug.length})`
        : 'the file name is the slug and must be lowercase words joined by hyphens',
      fix: `rename it, like "${slugLike(file).slice(0, SLUG_MAX_LENGTH).replace(/-$/, '')}.md"`,
    })
    return false
  })
  const out: SourceRef[] = new Array(valid.length)
  const signatures: Record<string, string> = {}
  const toRead: number[] = []
  // The scan's stat of each file (far cheaper than a read and a hash through the thread pool).
  valid.forEach((file, i) => {
    const slug = file.slice(0, -3)
    const stat = scan.stats.get(file)
    const sig = stat && statSignature(stat)
    if (sig && isRecordable(stat, scan.scannedAt)) signatures[slug] = sig
    const hash = sig && known?.hashOf(slug, sig)
    if (hash) {
      out[i] = { slug, file, hash }
      known!.onUnchanged(out[i])
    } else toRead.push(i)
  })
  let next = 0
  const worker = async () => {
    while (next < toRead.length) {
      const i = toRead[next++]!
      const file = valid[i]!
      const bytes = await readFile(join(contentDir, file))
      const ref = { slug: file.slice(0, -3), file, hash: createHash('sha256').update(bytes).digest('hex') }
      out[i] = ref
      await onFile({ ...ref, source: bytes.toString('utf8') })
    }
  }
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker))
  return { refs: out, signatures, read: toRead.length }
}

/** The markdown after the frontmatter, leading blank lines removed: what is rendered and published. */
export function articleBody(source: string): string {
  return source.replace(FRONTMATTER, '').replace(/^\s*\n/, '')
}

/** Validates the frontmatter; returns the metadata, or pushes the problems and returns undefined. */
export function parseArticle(f: SourceFile, problems: BuildProblem[]): ArticleMeta | undefined {
  const read = readFrontMatter(f.source)
  if ('problem' in read) {
    problems.push({ file: f.file, ...read.problem })
    return undefined
  }
  const data = read.data
  const illFormed = illFormedText(data)
  for (const path of illFormed)
    problems.push({
      file: f.file,
      field: path.join('.'),
      message: 'holds a lone surrogate (an escape like "\\uD800" alone), which is not a character',
      fix: 'remove the escape, or write the character itself (or both halves of its pair, like "\\uD83D\\uDE00")',
    })
  if (illFormed.length) return undefined
  const parsed = Frontmatter.safeParse(data)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // Inside a list item (`authors.0`), the fields of that item's kind.
        const allowed = issue.path.length ? NESTED_FIELDS[String(issue.path[0])] : FIELDS
        for (const key of issue.keys) {
          const field = [...issue.path, key].join('.')
          problems.push({
            file: f.file,
            field,
            message: `unknown field "${field}"`,
            fix: `remove it, or use one of: ${allowed ?? FIELDS}`,
          })
        }
      } else if (issue.code !== 'custom' && issue.path.length === 1 && data[String(issue.path[0])] === undefined) {
        problems.push({
          file: f.file,
          field: String(issue.path[0]),
          message: `${String(issue.path[0])} is required`,
          fix: 'add it to the frontmatter',
        })
      } else {
        // A rule of the schema may name its fix (`params.fix`); the others say it in the message.
        const fix = issue.code === 'custom' && typeof issue.params?.fix === 'string' ? issue.params.fix : undefined
        problems.push({
          file: f.file,
          field: issue.path.join('.') || undefined,
          message: issue.message,
          ...(fix ? { fix } : {}),
        })
      }
    }
    return undefined
  }
  const fm = parsed.data
  if (articleBody(f.source).length > BODY_MAX) {
    problems.push({
      file: f.file,
      message: `the article is longer than ${BODY_MAX} characters, the most the API and MCP answer with`,
      fix: 'split it into several articles',
    })
    return undefined
  }
  return {
    slug: f.slug,
    hash: f.hash,
    ...manifestFields(fm),
    ...(fm.license === undefined && SITE.license !== undefined ? { license: SITE.license } : {}),
    draft: fm.draft,
    readingMinutes: readingMinutes(articleBody(f.source)),
  }
}

function slugLike(file: string): string {
  return (
    file
      .slice(0, -3)
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'my-article'
  )
}
