/**
 * The post index's file format and its checks: the two files' names and version, the header and
 * entry lines' schemas, and the validation that names the file, the entry and the field. The
 * writer (index-file-writer.ts) and the loader (index-file-loader.ts) both hold to it.
 *
 * The post index in a build folder is two files:
 *
 * - `post-index.bodies`: for every article, its markdown as a JSON string literal (UTF-8, quotes
 *   included), then that literal as the content of a JSON string (json-text.ts: the form an MCP
 *   tool answer's text content carries it in), then its references, one article after the
 *   other, nothing between;
 * - `post-index.ndjson`, written last: a header line, then one line per article (newest first)
 *   with its index entry minus the markdown, plus `body: [offset, length]` and
 *   `text: [offset, length]`, the two forms' places in the bodies file, and `refs: [offset,
 *   length]`, the article's references (CSL-JSON) as a JSON array after them (length 0 for none),
 *   which the detail reads as it reads the markdown. The articles citing it (`citedBy`, always
 *   written, last before the places) are in its line: the service keeps them.
 *
 * Loading parses only the small lines and keeps the bodies file open: a detail reads its body
 * from the file when asked for (file-bodies.ts), never parsed or held, so the service's memory does
 * not grow with the corpus and the OS's page cache is the bodies' cache.
 */
import { z } from 'zod'
import { IndexEntry } from '../model/article.ts'

export const INDEX_FILES = { entries: 'post-index.ndjson', bodies: 'post-index.bodies' } as const
/** Changes whenever the layout does; a build of another format is refused, asking for a rebuild. */
export const INDEX_FORMAT_VERSION = 4
export const FORMAT = 'lattice-post-index'

export const Header = z.object({
  format: z.literal(FORMAT),
  version: z.literal(INDEX_FORMAT_VERSION),
  entries: z.int().min(0),
  bodiesBytes: z.int().min(0),
})
export const EntryLine = IndexEntry.omit({ markdown: true, references: true }).extend({
  body: z.tuple([z.int().min(0), z.int().min(2)]),
  // The literal's quotes, escaped: `\"` at each end.
  text: z.tuple([z.int().min(0), z.int().min(4)]),
  // None (0), or `[…]`.
  refs: z.tuple([z.int().min(0), z.int().min(0)]),
})
export type EntryLine = z.infer<typeof EntryLine>

/** One entry checked against the article schema; the error names the entry and every bad field. */
export function validateEntry(raw: unknown, at: string): IndexEntry {
  return validate(IndexEntry, raw, at)
}

/** `raw` checked against `schema`; the error names `at`, the entry's slug and every bad field. */
export function validate<S extends z.ZodType>(schema: S, raw: unknown, at: string): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  const slug =
    typeof raw === 'object' && raw !== null && 'slug' in raw && typeof raw.slug === 'string' ? ` ("${raw.slug}")` : ''
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.length ? issue.path.join('.') : 'entry'}: ${issue.message}`,
  )
  throw new Error(`${at}${slug}: ${problems.join('; ')}`, { cause: parsed.error })
}

/** The JSON in `text`, or undefined where it is none (the schema's check then says so). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
