/**
 * An article's references and the articles that cite it, as the post index keeps them and the
 * API's PostDetail gives them. A reference is a CSL-JSON item (CSL-JSON schema 1.0,
 * https://github.com/citation-style-language/schema, csl-data.json) reduced to the fields a
 * reader of a reference list uses, each bounded, so the OpenAPI document can declare it whole.
 */
import { z } from 'zod'
import { articleUrl } from './article-address.ts'
import { SLUG_MAX_LENGTH } from './slug.ts'
import { SENT_URL_MAX, URL_MAX } from './wire-limits.ts'

/** The most references an article's answer lists, and the most citing articles. */
export const REFERENCES_MAX = 1000
export const CITED_BY_MAX = 1000
const TEXT_MAX = 1000
const SHORT_MAX = 100
const NAMES_MAX = 100
/** An article's title: its front-matter bound (model/article-fields.ts). */
const TITLE_MAX = 200

const text = (max: number) => z.string().max(max)

/** A CSL name: a person's parts, or an institution's `literal`. */
const CslName = z
  .object({
    family: text(SHORT_MAX * 2).optional(),
    given: text(SHORT_MAX * 2).optional(),
    'dropping-particle': text(SHORT_MAX).optional(),
    'non-dropping-particle': text(SHORT_MAX).optional(),
    suffix: text(SHORT_MAX).optional(),
    literal: text(TEXT_MAX).optional(),
  })
  .strict()

/** A CSL date: `date-parts` [[year, month?, day?]] (a range has two), or a `literal` as written. */
const CslDate = z
  .object({
    'date-parts': z
      .array(
        z
          .array(z.int().min(-9999).max(9999).meta({ format: 'int32' }))
          .min(1)
          .max(3),
      )
      .min(1)
      .max(2)
      .optional(),
    literal: text(SHORT_MAX).optional(),
  })
  .strict()

const STRING_FIELDS = [
  'title',
  'container-title',
  'collection-title',
  'publisher',
  'publisher-place',
  'event-title',
  'genre',
  'volume',
  'issue',
  'page',
  'edition',
  'number',
  'ISBN',
  'ISSN',
  'note',
] as const
const NAME_FIELDS = ['author', 'editor', 'translator'] as const
const DATE_FIELDS = ['issued', 'accessed'] as const

/** One schema for each of `names`, typed by name. */
const fieldsOf = <N extends string, S extends z.ZodType>(names: readonly N[], schema: S) =>
  Object.fromEntries(names.map((n) => [n, schema])) as Record<N, S>

/** A work the article cites, in CSL-JSON. */
export const CslReference = z
  .object({
    id: text(SHORT_MAX * 2).meta({ description: 'The citation key.' }),
    type: text(SHORT_MAX).meta({ description: 'The CSL item type, e.g. `article-journal`.' }),
    ...fieldsOf(STRING_FIELDS, text(TEXT_MAX).optional()),
    ...fieldsOf(NAME_FIELDS, z.array(CslName).max(NAMES_MAX).optional()),
    ...fieldsOf(DATE_FIELDS, CslDate.optional()),
    DOI: text(SHORT_MAX * 2).optional(),
    URL: text(URL_MAX).optional(),
  })
  .strict()
  .meta({ description: 'A cited work as a CSL-JSON item (its reader-facing fields).' })
export type CslReference = z.infer<typeof CslReference>

/** An article that cites this one, as the post index keeps it (the service adds its URL). */
export const CitingEntry = z.object({ slug: z.string().max(SLUG_MAX_LENGTH), title: text(TITLE_MAX) }).strict()
export type CitingEntry = z.infer<typeof CitingEntry>

/** An article of this publication that cites this one. */
export const CitingArticle = CitingEntry.extend({ url: z.string().max(SENT_URL_MAX) })
  .strict()
  .meta({ description: 'An article of this publication that cites this one.' })

const clip = (v: unknown, max: number) =>
  typeof v === 'string' ? v.slice(0, max) : typeof v === 'number' ? String(v).slice(0, max) : undefined

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T

function name(v: unknown): z.infer<typeof CslName> | undefined {
  if (typeof v !== 'object' || v === null) return undefined
  const n = v as Record<string, unknown>
  const out = defined({
    family: clip(n.family, SHORT_MAX * 2),
    given: clip(n.given, SHORT_MAX * 2),
    'dropping-particle': clip(n['dropping-particle'], SHORT_MAX),
    'non-dropping-particle': clip(n['non-dropping-particle'], SHORT_MAX),
    suffix: clip(n.suffix, SHORT_MAX),
    literal: clip(n.literal, TEXT_MAX),
  })
  return Object.keys(out).length ? out : undefined
}

function date(v: unknown): z.infer<typeof CslDate> | undefined {
  if (typeof v !== 'object' || v === null) return undefined
  const d = v as Record<string, unknown>
  const parts = Array.isArray(d['date-parts'])
    ? d['date-parts']
        .slice(0, 2)
        .map((p) => (Array.isArray(p) ? p.slice(0, 3).map(Number).filter(Number.isInteger) : []))
        .filter((p) => p.length > 0 && p.every((n) => Math.abs(n) <= 9999))
    : []
  const out = defined({ 'date-parts': parts.length ? parts : undefined, literal: clip(d.literal ?? d.raw, SHORT_MAX) })
  return Object.keys(out).length ? out : undefined
}

/** A CSL-JSON item (as citation-js reads a bibliography) in the bounded form the API gives. */
export function toCslReference(item: Record<string, unknown>): CslReference {
  const out: Record<string, unknown> = {
    id: clip(item.id, SHORT_MAX * 2) ?? '',
    type: clip(item.type, SHORT_MAX) ?? '',
  }
  for (const f of STRING_FIELDS) out[f] = clip(item[f], TEXT_MAX)
  for (const f of NAME_FIELDS) {
    const names = Array.isArray(item[f]) ? item[f].slice(0, NAMES_MAX).map(name).filter(Boolean) : []
    out[f] = names.length ? names : undefined
  }
  for (const f of DATE_FIELDS) out[f] = date(item[f])
  out.DOI = clip(item.DOI, SHORT_MAX * 2)
  out.URL = typeof item.URL === 'string' && item.URL.length <= URL_MAX ? item.URL : undefined
  return { ...defined(out), id: out.id, type: out.type } as CslReference
}

/** The API's cited-by list from the index's: each with its absolute URL. */
export const citingArticles = (list: readonly CitingEntry[], baseUrl: string) =>
  list.map((c) => ({ slug: c.slug, title: c.title, url: articleUrl(baseUrl, c.slug) }))
