/**
 * The article's fields, each written once: its front-matter rule (with its limits), its form in
 * the post index, its form in the API (when the index's form is not what a client reads), what
 * it means, and where it shows. model/article.ts derives the front-matter schema, the index and
 * Post schemas, their types and the OpenAPI schemas from this table; the site and the build read
 * fields through them. Adding a field is one entry here plus the places that render it.
 */
import { z } from 'zod'
import { articleUrl } from './article-address.ts'
import { DOI_RE, Doi } from './doi.ts'
import {
  Author,
  AuthorApi,
  AuthorWire,
  Change,
  ChangeWire,
  License,
  namesSeveral,
  toAuthorApi,
  toAuthorWire,
} from './research.ts'
import { SLUG_MAX_LENGTH, SLUG_RE, Slug } from './slug.ts'
import { DATE_MAX, DATE_MIN, calendarDate } from './calendar-date.ts'
import { singleLine } from './text-rules.ts'
import { SENT_URL_MAX, URL_MAX } from './wire-limits.ts'

/** Where a field is shown: the REST API, the feeds, MCP's tool results, the article page. */
export type Place = 'api' | 'feeds' | 'mcp' | 'page'

/** A record as the build hands it on (JSON: dates as ISO strings). */
type Record_ = Record<string, unknown>

export interface FieldDef {
  /** What the field means: the OpenAPI description and the docs say this. */
  doc: string
  /**
   * Where it shows. `api` makes it a field of Post (so of MCP's tool results too, which are
   * Posts: `mcp` goes with `api`); `feeds` and `page` say which renderers show it.
   */
  shows: readonly Place[]
  examples?: readonly unknown[]
  /** The front matter's rule; absent for fields the build computes. */
  input?: z.ZodType
  /** The field in the post index (JSON), what the service reads; absent when only pages use it. */
  index?: z.ZodType
  /** The index's value from the article's record, when it is not the record's own value. */
  toIndex?: (record: Record_) => unknown
  /** The API's form, when it is not the index's: its schema and its value from an index entry. */
  api?: { schema: z.ZodType; of: (entry: Record_, baseUrl: string) => unknown }
}

const EVERYWHERE = ['api', 'feeds', 'mcp', 'page'] as const
/** Cover used when an article names no `image`. */
export const DEFAULT_IMAGE_PATH = '/images/default-cover.svg'
const AUTHORS_MAX = 50
const CHANGES_MAX = 100
/** The longest byline: every author's name, joined. */
const BYLINE_MAX = AUTHORS_MAX * 126

const TAG_MAX = 64
export const Tag = z
  .string()
  .max(TAG_MAX)
  .regex(SLUG_RE, 'tags are lowercase words joined by hyphens, like "machine-learning"')

const dateField = calendarDate
const text = singleLine
const isoDay = (record: Record_, name: string) => String(record[name]).slice(0, 10)

const BIBLIOGRAPHIES_MAX = 20
/** A file beside the article, named relative to it, inside the content folder. */
const relativeFile = (name: string, ending: RegExp, kind: string) =>
  z
    .string()
    .min(1)
    .max(URL_MAX)
    .refine((v) => !v.startsWith('/') && !v.split(/[\\/]/).includes('..'), {
      message: `${name} is a path relative to the article, inside the content folder`,
      params: { fix: `write it like "references${kind === 'a .csl file' ? '.csl' : '.bib'}", beside the article` },
    })
    .refine((v) => ending.test(v), { message: `${name} must name ${kind}`, params: { fix: `name ${kind}` } })
const BibliographyPath = relativeFile('bibliography', /\.(bib|json)$/, 'a .bib or .json file')

export const ARTICLE_FIELDS = {
  slug: {
    doc: 'Unique identifier, the file name of the article.',
    shows: EVERYWHERE,
    examples: ['tail-latency-in-fan-out-services'],
    index: Slug,
  },
  title: { doc: 'The title.', shows: EVERYWHERE, input: text(200), index: text(200) },
  description: {
    doc: 'A summary of one or two sentences, shown in lists, feeds and search results.',
    shows: EVERYWHERE,
    input: text(400),
    index: text(400),
  },
  date: {
    doc: `Publication date, YYYY-MM-DD, from ${DATE_MIN} to ${DATE_MAX}.`,
    shows: EVERYWHERE,
    examples: ['2025-07-09'],
    input: dateField('date', '2025-03-14'),
    index: z.iso.date({ error: 'must be YYYY-MM-DD' }).max(10),
    toIndex: (r) => isoDay(r, 'date'),
  },
  lastModified: {
    doc: 'Last modification, ISO 8601 UTC; the publication date when the article names none.',
    shows: EVERYWHERE,
    examples: ['2025-08-01T14:20:00.000Z'],
    input: dateField('lastModified', '2025-04-02T10:30:00Z').optional(),
    // toISOString's form: 24 characters for the years 0000 to 9999, which the date pattern holds to.
    index: z.iso.datetime({ error: 'must be an ISO 8601 date-time' }).max(24),
    toIndex: (r) => r.lastModified ?? r.date,
  },
  author: {
    doc: 'The byline in one string: the authors’ names joined ("A and B", "A, B and C"); see authors.',
    shows: EVERYWHERE,
    examples: ['Jonas Lindqvist'],
    // One person: several go under `authors`, or citations would read them as one name.
    input: text(120)
      .refine((v) => !namesSeveral(v), {
        error: 'author names several people, which citations would read as one person',
        params: { fix: 'list them under "authors:", one "- name: …" each, in byline order' },
      })
      .optional(),
    index: z.string().min(1).max(BYLINE_MAX),
  },
  authors: {
    doc: 'Every author in byline order, with their ORCID iD and affiliation when given, and their page.',
    shows: EVERYWHERE,
    input: z.array(Author).min(1).max(AUTHORS_MAX).optional(),
    // Optional in the index (an entry without it has one author, `author`), always in the API.
    index: z.array(AuthorWire).min(1).max(AUTHORS_MAX).optional(),
    toIndex: (r) => (r.authors as Author[]).map(toAuthorWire),
    api: {
      schema: z.array(AuthorApi).min(1).max(AUTHORS_MAX),
      of: (e, base) =>
        ((e.authors as z.output<typeof AuthorWire>[] | undefined) ?? [toAuthorWire({ name: String(e.author) })]).map(
          (a) => toAuthorApi(a, base),
        ),
    },
  },
  tags: {
    doc: 'Topics, lowercase words joined by hyphens.',
    shows: EVERYWHERE,
    input: z.array(Tag).max(12).default([]),
    // The front matter holds tags to the pattern; the index only to the sizes.
    index: z.array(z.string().max(TAG_MAX)).max(12),
  },
  url: {
    doc: 'The article page.',
    shows: ['api', 'mcp'],
    api: { schema: z.url().max(SENT_URL_MAX), of: (e, base) => articleUrl(base, String(e.slug)) },
  },
  markdown_url: {
    doc: 'The markdown twin of the article (text/markdown).',
    shows: ['api', 'mcp'],
    api: { schema: z.url().max(SENT_URL_MAX), of: (e, base) => articleUrl(base, String(e.slug), 'md') },
  },
  image: {
    doc: 'Cover image; a default image when the article names none.',
    shows: EVERYWHERE,
    input: z
      .string()
      .max(URL_MAX)
      .refine(
        (v) => (v.startsWith('/') || /^https?:\/\//.test(v)) && !/[\s\p{Cc}]/u.test(v),
        'image must be a site path (/images/x.png) or an http(s) URL, without spaces or line breaks',
      )
      .optional(),
    index: z.string().max(URL_MAX).optional(),
    api: {
      schema: z.url().max(SENT_URL_MAX),
      of: (e, base) => new URL(String(e.image ?? DEFAULT_IMAGE_PATH), `${base}/`).href,
    },
  },
  imageAlt: {
    doc: 'The cover’s alt text; without it, the pages describe the cover by the article’s title.',
    shows: ['page'],
    input: text(300).optional(),
  },
  doi: {
    doc: "The article's DOI (`10.<registrant>/<suffix>`, resolved at https://doi.org/<doi>); null when it has none.",
    shows: EVERYWHERE,
    examples: ['10.5555/12345678'],
    input: Doi.optional(),
    index: z.string().max(URL_MAX).regex(DOI_RE).optional(),
    api: { schema: z.string().max(URL_MAX).regex(DOI_RE).nullable(), of: (e) => e.doi ?? null },
  },
  license: {
    doc: 'The licence, an SPDX identifier (https://spdx.org/licenses/); the site default when the article has none.',
    shows: EVERYWHERE,
    examples: ['CC-BY-4.0'],
    input: License.optional(),
    index: z.string().max(100).optional(),
    api: { schema: z.string().max(100).nullable(), of: (e) => e.license ?? null },
  },
  changes: {
    doc: 'Corrections and updates, oldest first; the last one, when later, is the modification date.',
    shows: EVERYWHERE,
    input: z.array(Change).max(CHANGES_MAX).default([]),
    index: z.array(ChangeWire).max(CHANGES_MAX).optional(),
    api: { schema: z.array(ChangeWire).max(CHANGES_MAX), of: (e) => e.changes ?? [] },
    toIndex: (r) =>
      (r.changes as Array<{ date: string; note: string }>).map((c) => ({ date: c.date.slice(0, 10), note: c.note })),
  },
  bibliography: {
    doc: 'Bibliography files (BibTeX `.bib` or CSL-JSON `.json`), relative to the article: the keys its citations use.',
    shows: [],
    input: z.union([BibliographyPath, z.array(BibliographyPath).min(1).max(BIBLIOGRAPHIES_MAX)]).optional(),
  },
  csl: {
    doc: 'A CSL style file (`.csl`), relative to the article, for its citations; the site default (APA 7th) otherwise.',
    shows: [],
    input: relativeFile('csl', /\.csl$/, 'a .csl file').optional(),
  },
  readingMinutes: {
    doc: 'Reading time in whole minutes; 0 for under a minute.',
    shows: ['page'],
    index: z.int().min(0),
  },
  draft: { doc: 'Validated but not published.', shows: [], input: z.boolean().default(false) },
} satisfies Record<string, FieldDef>

export { SLUG_MAX_LENGTH }
