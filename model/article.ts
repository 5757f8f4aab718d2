/**
 * The article's schemas, derived from its fields (model/article-fields.ts): the build validates
 * front matter with `Frontmatter`, hands the pages `ManifestRecord`s and the service
 * `IndexEntry` records, and the service answers with `Post` / `PostDetail`, whose JSON Schemas
 * (with their limits and descriptions) are the OpenAPI document's.
 *
 * Shared by the build (scripts/, site/) and the service (auth-service/), which imports nothing
 * from the build.
 */
import { z } from 'zod'
import { ARTICLE_FIELDS, type FieldDef } from './article-fields.ts'
import { joinNames } from './research.ts'
import { BODY_MAX } from './wire-limits.ts'
import { CITED_BY_MAX, CitingArticle, CitingEntry, CslReference, REFERENCES_MAX, citingArticles } from './references.ts'

export { ARTICLE_FIELDS, DEFAULT_IMAGE_PATH, Tag, type Place } from './article-fields.ts'
export { DOI_PATTERN, doiUrl, isCrossrefDoi } from './doi.ts'
export { SLUG_MAX_LENGTH, SLUG_PATTERN, Slug } from './slug.ts'
export { type Author, licenseUrl, orcidUrl } from './research.ts'

export const WORDS_PER_MINUTE = 230

type Fields = typeof ARTICLE_FIELDS
type Name = keyof Fields
type With<P extends keyof FieldDef> = { [K in Name]: Fields[K] extends Record<P, unknown> ? K : never }[Name]
type ApiName = { [K in Name]: 'api' extends Fields[K]['shows'][number] ? K : never }[Name]
type ApiSchema<K extends Name> = Fields[K] extends { api: { schema: infer S } }
  ? S
  : Fields[K] extends { index: infer S }
    ? S
    : never

const NAMES = Object.keys(ARTICLE_FIELDS) as Name[]
const field = (name: Name): FieldDef => ARTICLE_FIELDS[name]
const described = (f: FieldDef, s: z.ZodType) =>
  s.meta({ description: f.doc, ...(f.examples ? { examples: [...f.examples] } : {}) })

function shape(pick: (f: FieldDef) => z.ZodType | undefined, names: readonly Name[] = NAMES) {
  const out: Record<string, z.ZodType> = {}
  for (const n of names) {
    const s = pick(field(n))
    if (s) out[n] = s
  }
  return out
}

const INPUT = shape((f) => f.input) as { [K in With<'input'>]: Fields[K]['input'] }
const INDEX = shape((f) => f.index) as { [K in With<'index'>]: Fields[K]['index'] }
const API_NAMES = NAMES.filter((n) => field(n).shows.includes('api'))
const API = shape((f) => {
  const s = f.api?.schema ?? f.index
  return s && described(f, s)
}, API_NAMES) as { [K in ApiName]: ApiSchema<K> }

/** The fields of the front matter, unknown keys stripped. */
export const ArticleFields = z.object(INPUT)
type Fm = z.output<typeof ArticleFields>

/** The front matter as the build passes it on: `authors` always, `author` their names joined. */
function normalize(a: Fm) {
  const authors = a.authors ?? [{ name: a.author ?? '' }]
  const lastChange = a.changes.at(-1)?.date
  const modified = a.lastModified ?? a.date
  return {
    ...a,
    author: joinNames(authors.map((p) => p.name)),
    authors,
    ...(lastChange && lastChange > modified ? { lastModified: lastChange } : {}),
  }
}

/** The rules that join fields; a rule names its fix (`params.fix`) where the message does not. */
function crossFieldRules(a: Fm, ctx: z.RefinementCtx): void {
  const issue = (path: PropertyKey[], message: string, fix: string) =>
    ctx.addIssue({ code: 'custom', path, message, params: { fix } })
  if (a.author === undefined && a.authors === undefined)
    issue(['author'], 'author is required', 'add "author: Your Name", or "authors:" with one "- name: …" each')
  if (a.author !== undefined && a.authors !== undefined)
    issue(['authors'], 'give authors or author, not both', 'keep "authors:" and remove "author:"')
  if (a.lastModified && a.lastModified < a.date)
    issue(['lastModified'], 'lastModified must not be before date', 'give the date of the last change, or remove it')
  a.changes.forEach((c, i) => {
    if (c.date < a.date)
      issue(['changes', i, 'date'], 'a change is dated before the article', 'date it on or after the article’s date')
    else if (i > 0 && c.date < a.changes[i - 1]!.date)
      issue(['changes', i, 'date'], 'changes are listed oldest first', 'move this change above the one before it')
  })
}

/** What a writer puts between the `---` lines. Unknown fields are refused: a misspelt `tag:` must not drop the tags. */
export const Frontmatter = ArticleFields.strict().superRefine(crossFieldRules).transform(normalize)
export type Frontmatter = z.output<typeof Frontmatter>
/** The names a writer may use, for the fix of an unknown field. */
export const FRONTMATTER_FIELDS: readonly string[] = Object.keys(INPUT)

/** How the pages read the build's manifest back (dates as dates): its `author` is the joined byline. */
export const ArticleRecord = ArticleFields.extend({ author: z.string() }).transform(normalize)

/** An article's metadata as the pages read it. */
export type ArticleData = Omit<Frontmatter, 'draft'>

type JsonOf<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? JsonOf<U>[]
    : T extends object
      ? { [K in keyof T]: JsonOf<T[K]> }
      : T
/**
 * One published article's metadata as the build hands it to the pages (the articles manifest):
 * the front matter with its dates as ISO strings, the slug and the reading time; no body.
 */
export type ManifestRecord = { slug: string; readingMinutes: number } & {
  [K in keyof ArticleData]: JsonOf<ArticleData[K]>
}

/** The manifest's form of validated front matter: ISO dates, absent fields left out, no draft flag. */
export function manifestFields(fm: Frontmatter): Omit<ManifestRecord, 'slug' | 'readingMinutes'> {
  const { draft: _draft, ...data } = fm
  return JSON.parse(JSON.stringify(data)) as Omit<ManifestRecord, 'slug' | 'readingMinutes'>
}

/**
 * One published article as the build hands it to the service: wire forms of the dates, URLs
 * left relative (the service makes them absolute with its BASE_URL), and the markdown body.
 */
export const IndexEntry = z.object({
  ...INDEX,
  // Last before the body's places, citedBy: the build compares it in a kept line (index-file-writer.ts).
  references: z.array(CslReference).max(REFERENCES_MAX).optional(),
  citedBy: z.array(CitingEntry).max(CITED_BY_MAX).optional(),
  markdown: z.string().max(BODY_MAX),
})
export type IndexEntry = z.infer<typeof IndexEntry>

/** An index entry's fields from a manifest record (the body is the caller's). */
export function indexFields(record: ManifestRecord): Omit<IndexEntry, 'markdown'> {
  const r = record as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const n of NAMES) {
    const f = field(n)
    if (!f.index) continue
    const v = f.toIndex ? f.toIndex(r) : r[n]
    if (v !== undefined) out[n] = v
  }
  return out as Omit<IndexEntry, 'markdown'>
}

/** The wire Post (docs/api.md#the-api): every field always present, absolute URLs. */
export const Post = z.object(API).strict().meta({ description: 'A published article. Every field is always present.' })
export type Post = z.infer<typeof Post>

export const PostDetail = Post.extend({
  references: z
    .array(CslReference)
    .max(REFERENCES_MAX)
    .meta({ description: 'The works the article cites (its References list), as CSL-JSON items; empty when none.' }),
  citedBy: z
    .array(CitingArticle)
    .max(CITED_BY_MAX)
    .meta({ description: 'The articles of this publication that cite this one, newest first; empty when none.' }),
  markdown: z.string().max(BODY_MAX).meta({ description: 'The article body in markdown, without frontmatter.' }),
})
  .strict()
  .meta({ description: 'A Post with its markdown body.' })
export type PostDetail = z.infer<typeof PostDetail>

/** The wire Post for an index entry, with absolute URLs from `baseUrl` (an origin, no trailing slash). */
export function toPost(p: Omit<IndexEntry, 'markdown'>, baseUrl: string): Post {
  const e = p as unknown as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const n of API_NAMES) {
    const f = field(n)
    out[n] = f.api ? f.api.of(e, baseUrl) : e[n]
  }
  return out as Post
}

/** What a detail adds to its Post before the markdown: the references and the citing articles. */
export function detailFields(p: Pick<IndexEntry, 'references' | 'citedBy'>, baseUrl: string) {
  return { references: p.references ?? [], citedBy: citingArticles(p.citedBy ?? [], baseUrl) }
}

/** The alt text of an article's cover: the writer's `imageAlt`, else one made from the title. */
export function coverAlt(a: { title: string; imageAlt?: string }): string {
  return a.imageAlt ?? `Cover image of “${a.title}”`
}

/** Reading time at WORDS_PER_MINUTE in whole minutes: 0 under a minute, else at least one. */
export function readingMinutes(markdown: string): number {
  let words = 0
  for (const w of markdown.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(w)) words++
  return words < WORDS_PER_MINUTE ? 0 : Math.max(1, Math.round(words / WORDS_PER_MINUTE))
}
