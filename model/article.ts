/**
 * The one article schema. The build validates frontmatter with `Frontmatter`, writes
 * `IndexEntry` records for the service, and the service answers with `Post` / `PostDetail`;
 * the OpenAPI schemas are generated from these with `z.toJSONSchema`. Nothing else spells a
 * field, a pattern or a default of an article.
 *
 * Shared by the build (scripts/, site/) and the service (auth-service/). The service imports
 * nothing from the build, and site/ nothing but this folder; scripts/ imports from the service
 * what it must write as the service reads it (the post index, the edge files, the OpenAPI
 * document), its configuration, and (for the live preview) the service itself.
 */
import { z } from 'zod'
import { articleUrl } from './article-address.ts'

/** Lowercase words joined by hyphens: the slug is the file name and the article's address. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
/** The longest slug (a file name, and a path segment every client may have to store). */
export const SLUG_MAX_LENGTH = 128
const SLUG_RE = new RegExp(SLUG_PATTERN)
/** Cover used when an article names no `image`. */
export const DEFAULT_IMAGE_PATH = '/images/default-cover.svg'
export const WORDS_PER_MINUTE = 230

/** The alt text of an article's cover: the writer's `imageAlt`, else one made from the title. */
export function coverAlt(a: { title: string; imageAlt?: string }): string {
  return a.imageAlt ?? `Cover image of “${a.title}”`
}

/**
 * A DOI as the DOI Handbook spells it, `10.<registrant>/<suffix>`: the registrant is digits
 * (with optional `.`-separated subdivisions), the suffix any printable characters except
 * whitespace and the three that cannot sit verbatim in a BibTeX field (`{`, `}`, `\`).
 */
export const DOI_PATTERN = '^10\\.\\d{4,9}(?:\\.\\d+)*/[^\\s{}\\\\]+$'
const DOI_RE = new RegExp(DOI_PATTERN)
const DOI_EXAMPLE = '10.5555/12345678'

// Characters a DOI may hold that a URL path may not (RFC 3986 pchar, and `/`).
const NOT_URL_PATH = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu

/** A DOI's resolver link, `https://doi.org/<doi>`, percent-encoded as the DOI Handbook asks. */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi.replace(NOT_URL_PATH, (c) => encodeURIComponent(c))}`
}

/** The DOI alone, refused with a fix when it is a link or not a DOI. */
const Doi = z
  .string({ error: `doi must be text like ${DOI_EXAMPLE}` })
  .trim()
  .refine((v) => DOI_RE.test(v), {
    error: (issue) =>
      /^(https?:\/\/|doi:)/i.test(String(issue.input))
        ? `doi must be the DOI alone, not a link, like ${DOI_EXAMPLE}`
        : `doi must look like 10.<registrant>/<suffix>, like ${DOI_EXAMPLE}`,
    params: { fix: `write the DOI alone, like "doi: ${DOI_EXAMPLE}" (no https://doi.org/ or doi: in front)` },
  })

export const Slug = z
  .string()
  .max(SLUG_MAX_LENGTH, `the file name is the slug and must be at most ${SLUG_MAX_LENGTH} characters`)
  .regex(SLUG_RE, 'the file name is the slug and must be lowercase words joined by hyphens, like "my-article.md"')
  .meta({
    description: 'Unique identifier, the file name of the article.',
    examples: ['tail-latency-in-fan-out-services'],
  })

export const Tag = z.string().regex(SLUG_RE, 'tags are lowercase words joined by hyphens, like "machine-learning"')

const dateField = (name: string, example: string) =>
  z.coerce.date({
    error: (issue) =>
      issue.input === undefined ? `${name} is required, like ${example}` : `${name} must be a date, like ${example}`,
  })

/** What a writer puts between the `---` lines. Unknown fields are refused: a misspelt `tag:` must not drop the tags. */
export const Frontmatter = z
  .object({
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().min(1).max(400),
    date: dateField('date', '2025-03-14'),
    lastModified: dateField('lastModified', '2025-04-02T10:30:00Z').optional(),
    author: z.string().trim().min(1).max(120),
    tags: z.array(Tag).max(12).default([]),
    image: z
      .string()
      .refine(
        (v) => v.startsWith('/') || /^https?:\/\//.test(v),
        'image must be a site path (/images/x.png) or an http(s) URL',
      )
      .optional(),
    /** The cover's alt text; without it, the pages describe the cover by the article's title. */
    imageAlt: z.string().trim().min(1).max(300).optional(),
    doi: Doi.optional(),
    // Drafts are validated but not published.
    draft: z.boolean().default(false),
  })
  .strict()
  .refine((a) => !a.lastModified || a.lastModified >= a.date, {
    message: 'lastModified must not be before date',
    path: ['lastModified'],
  })
export type Frontmatter = z.output<typeof Frontmatter>

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
const isoDateTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time')

/**
 * One published article as the build hands it to the service: wire forms of the dates, URLs
 * left relative (the service makes them absolute with its BASE_URL), and the markdown body.
 */
export const IndexEntry = z.object({
  slug: Slug,
  title: z.string(),
  description: z.string(),
  /** `YYYY-MM-DD` */
  date: isoDay,
  /** ISO 8601 UTC date-time; the publication date when the article names none. */
  lastModified: isoDateTime,
  author: z.string(),
  tags: z.array(z.string()),
  /** A site path or an absolute URL; absent means the default cover. */
  image: z.string().optional(),
  /** The article's DOI, when it has one. */
  doi: z.string().regex(DOI_RE).optional(),
  readingMinutes: z.number(),
  markdown: z.string(),
})
export type IndexEntry = z.infer<typeof IndexEntry>

/**
 * One published article's metadata as the build hands it to the site's pages (the articles
 * manifest): dates as ISO strings, no body.
 */
export interface ManifestRecord {
  slug: string
  title: string
  description: string
  /** ISO 8601 date-time of the publication date. */
  date: string
  lastModified?: string
  author: string
  tags: string[]
  image?: string
  imageAlt?: string
  doi?: string
  readingMinutes: number
}

const uri = () => z.url()

/** The wire Post (docs/api.md#the-api): every field always present, absolute URLs. */
export const Post = z
  .object({
    slug: Slug,
    title: z.string(),
    description: z.string(),
    date: z.iso.date().meta({ description: 'Publication date, YYYY-MM-DD.', examples: ['2025-07-09'] }),
    lastModified: z.iso
      .datetime()
      .meta({ description: 'Last modification, ISO 8601 UTC.', examples: ['2025-08-01T14:20:00.000Z'] }),
    author: z.string(),
    tags: z.array(z.string()),
    url: uri().meta({ description: 'The article page.' }),
    markdown_url: uri().meta({ description: 'The markdown twin of the article (text/markdown).' }),
    image: uri().meta({ description: 'Cover image; a default image when the article names none.' }),
    doi: z
      .string()
      .regex(DOI_RE)
      .nullable()
      .meta({
        description:
          "The article's DOI (`10.<registrant>/<suffix>`, resolved at https://doi.org/<doi>); null when it has none.",
        examples: ['10.5555/12345678'],
      }),
  })
  .strict()
  .meta({ description: 'A published article. Every field is always present.' })
export type Post = z.infer<typeof Post>

export const PostDetail = Post.extend({
  markdown: z.string().meta({ description: 'The article body in markdown, without frontmatter.' }),
})
  .strict()
  .meta({ description: 'A Post with its markdown body.' })
export type PostDetail = z.infer<typeof PostDetail>

/** Reading time at WORDS_PER_MINUTE, at least one minute. */
export function readingMinutes(markdown: string): number {
  let words = 0
  for (const w of markdown.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(w)) words++
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE))
}

/** The wire Post for an index entry, with absolute URLs from `baseUrl` (an origin, no trailing slash). */
export function toPost(p: Omit<IndexEntry, 'markdown'>, baseUrl: string): Post {
  return {
    slug: p.slug,
    title: p.title,
    description: p.description,
    date: p.date,
    lastModified: p.lastModified,
    author: p.author,
    tags: [...p.tags],
    url: articleUrl(baseUrl, p.slug),
    markdown_url: articleUrl(baseUrl, p.slug, 'md'),
    image: new URL(p.image ?? DEFAULT_IMAGE_PATH, `${baseUrl}/`).href,
    doi: p.doi ?? null,
  }
}
