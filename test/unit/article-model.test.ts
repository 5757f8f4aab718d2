import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ARTICLE_FIELDS, Frontmatter, Post, SLUG_MAX_LENGTH, toPost, type IndexEntry } from '../../model/article.ts'
import { DATE_MAX, DATE_MIN } from '../../model/calendar-date.ts'
import { ARTICLE_PAGE_PATTERN, articlePath } from '../../model/article-address.ts'
import { SCHEMAS } from '../../auth-service/schemas/schemas.ts'
import { SAMPLE_POST } from '../../auth-service/routes/openapi-parts.ts'
import { ARTICLES_CONF, BUCKETS_CONF, articlesConf, bucketsConf } from '../../scripts/deploy/nginx-articles.ts'
import { readFrontMatter } from '../../scripts/builder/front-matter.ts'

const entry: Omit<IndexEntry, 'markdown'> = {
  slug: 'a-post',
  title: 'A post',
  description: 'About it.',
  date: '2025-03-14',
  lastModified: '2025-03-14T00:00:00.000Z',
  author: 'Ada Lovelace',
  tags: ['x'],
  readingMinutes: 1,
}

describe('the article model', () => {
  it('describes every Post field in the OpenAPI document with the limits the front matter enforces', () => {
    const props = (SCHEMAS.PostComplete as unknown as { properties: Record<string, Record<string, unknown>> })
      .properties
    const apiFields = Object.entries(ARTICLE_FIELDS).filter(([, f]) => (f.shows as string[]).includes('api'))
    expect(Object.keys(props)).toEqual(apiFields.map(([name]) => name))
    for (const [name, f] of apiFields) expect(props[name]!.description, name).toBe(f.doc)
    expect(props.title).toMatchObject({ minLength: 1, maxLength: 200 })
    expect(props.description).toMatchObject({ maxLength: 400 })
    expect(props.tags).toMatchObject({ maxItems: 12 })
    // The limit the OpenAPI document states is the one a build refuses past.
    const long = { title: 'x'.repeat(201), description: 'd', date: '2025-01-01', author: 'A' }
    expect(Frontmatter.safeParse(long).error?.issues[0]?.path).toEqual(['title'])
  })

  it('shows a field over MCP exactly when the API shows it (MCP answers Posts)', () => {
    for (const [name, f] of Object.entries(ARTICLE_FIELDS)) {
      const shows = f.shows as readonly string[]
      expect(shows.includes('mcp'), name).toBe(shows.includes('api'))
    }
  })

  it('documents an example Post that the Post schema accepts', () => {
    expect(Post.safeParse(SAMPLE_POST).error).toBeUndefined()
  })

  it('makes a Post that its own schema accepts, with absolute URLs from the base', () => {
    const post = toPost(entry, 'https://example.org')
    expect(Post.parse(post)).toEqual(post)
    expect(post).toMatchObject({
      url: 'https://example.org/posts/a-post',
      markdown_url: 'https://example.org/posts/a-post.md',
      image: 'https://example.org/images/default-cover.svg',
      doi: null,
    })
    expect(post).not.toHaveProperty('readingMinutes')
  })
})

describe('the proxy’s article locations', () => {
  it('are what the generator writes from the model (run npm run nginx:articles after a change)', () => {
    expect(readFileSync(ARTICLES_CONF, 'utf8')).toBe(articlesConf())
    expect(readFileSync(BUCKETS_CONF, 'utf8')).toBe(bucketsConf())
  })

  it('match an article page by the same pattern as the service, and nothing deeper', () => {
    const page = new RegExp(ARTICLE_PAGE_PATTERN)
    expect(page.test(articlePath('a-post'))).toBe(true)
    expect(page.test(articlePath('a-post', 'md'))).toBe(false)
    expect(page.test('/posts/A-post')).toBe(false)
    expect(page.test('/posts/a/b')).toBe(false)
    expect(articlesConf()).toContain(`location ~ ${ARTICLE_PAGE_PATTERN} {`)
  })
})

const base = { title: 'T', description: 'D', date: '2025-03-14', author: 'A' }
/** The issues of a front matter, as [field, message, fix]. */
const issuesOf = (fm: Record<string, unknown>) =>
  (Frontmatter.safeParse({ ...base, ...fm }).error?.issues ?? []).map((i) => [
    i.path.join('.'),
    i.message,
    (i as { params?: { fix?: string } }).params?.fix,
  ])

describe('front-matter dates', () => {
  it('refuses a day the calendar does not have, naming the field and the value as written', () => {
    expect(issuesOf({ date: '2025-13-45' })).toEqual([
      ['date', 'date "2025-13-45" has no month 13', expect.any(String)],
    ])
    expect(issuesOf({ date: '2025-02-30' })).toEqual([
      ['date', 'date "2025-02-30" has no day 30 in month 02 of 2025', expect.stringContaining('like 2025-03-14')],
    ])
    expect(issuesOf({ date: '2025-02-29' })[0]?.[1]).toBe('date "2025-02-29" has no day 29 in month 02 of 2025')
    expect(issuesOf({ lastModified: '2025-04-31T10:00:00Z' })[0]?.slice(0, 2)).toEqual([
      'lastModified',
      'lastModified "2025-04-31T10:00:00Z" has no day 31 in month 04 of 2025',
    ])
    expect(issuesOf({ lastModified: '2025-04-02T24:10:00Z' })[0]?.[1]).toContain('has no time 24:10')
    // One problem, the real one: not a misleading "dated before the article" besides.
    expect(issuesOf({ changes: [{ date: '2025-06-31', note: 'x' }] })).toEqual([
      ['changes.0.date', 'a change’s date "2025-06-31" has no day 31 in month 06 of 2025', expect.any(String)],
    ])
  })

  it(`accepts real days from ${DATE_MIN} to ${DATE_MAX}, and refuses years outside them`, () => {
    expect(Frontmatter.parse({ ...base, date: '2024-02-29' }).date.toISOString()).toBe('2024-02-29T00:00:00.000Z')
    expect(Frontmatter.parse({ ...base, date: DATE_MIN }).date.toISOString()).toBe(`${DATE_MIN}T00:00:00.000Z`)
    expect(Frontmatter.parse({ ...base, date: DATE_MAX }).date.toISOString()).toBe(`${DATE_MAX}T00:00:00.000Z`)
    for (const date of ['-000001-01-01', '0999-12-31', '+010000-01-01', '2025-3-14', 'soon', '9999-12-31T23:00-05:00'])
      expect(issuesOf({ date })[0]?.[0], date).toBe('date')
    // A time without an offset is UTC; with one, it is converted.
    const fm = Frontmatter.parse({ ...base, lastModified: '2025-04-02 10:30', changes: [] })
    expect(fm.lastModified?.toISOString()).toBe('2025-04-02T10:30:00.000Z')
    expect(Frontmatter.parse({ ...base, lastModified: '2025-04-02T10:30:00+02:00' }).lastModified?.toISOString()).toBe(
      '2025-04-02T08:30:00.000Z',
    )
  })

  it('reads a date as the text the writer wrote, never as YAML’s rolled-over timestamp', () => {
    const read = readFrontMatter('---\ndate: 2025-02-30\nlastModified: 2025-04-02T10:30:00Z\n---\n')
    expect(read).toEqual({ data: { date: '2025-02-30', lastModified: '2025-04-02T10:30:00Z' } })
  })

  it('states its limits in the OpenAPI document and the writing guide, from the model', () => {
    const props = (SCHEMAS.PostComplete as unknown as { properties: Record<string, Record<string, unknown>> })
      .properties
    expect(props.date!.description).toContain(`from ${DATE_MIN} to ${DATE_MAX}`)
    expect(props.slug).toMatchObject({ maxLength: SLUG_MAX_LENGTH })
    const guide = readFileSync(new URL('../../docs/writing.md', import.meta.url), 'utf8')
    for (const limit of [`${SLUG_MAX_LENGTH} characters`, DATE_MIN, DATE_MAX]) expect(guide).toContain(limit)
  })
})

describe('single-line front-matter fields', () => {
  it('refuse a line break, which would forge a line of the markdown twin or llms.txt', () => {
    const forged = 'A title\n- Canonical: https://evil.example/'
    expect(issuesOf({ title: forged })).toEqual([
      ['title', 'holds a line break, and this field is one line', expect.stringContaining('one line')],
    ])
    for (const [field, value] of [
      ['description', 'one\r\ntwo'],
      ['description', 'one\u2028two'],
      ['imageAlt', 'one\u0085two'],
    ] as const)
      expect(issuesOf({ [field]: value })[0]?.slice(0, 2), value).toEqual([
        field,
        'holds a line break, and this field is one line',
      ])
    expect(issuesOf({ author: undefined, authors: [{ name: 'A', affiliation: 'X\nY' }] })[0]?.[0]).toBe(
      'authors.0.affiliation',
    )
    expect(issuesOf({ changes: [{ date: '2025-04-01', note: 'Fixed.\n\n## Forged' }] })[0]?.[0]).toBe('changes.0.note')
  })

  it('refuse control characters, naming the one found', () => {
    expect(issuesOf({ title: 'Bell\u0007' })[0]).toEqual([
      'title',
      'holds the control character U+0007, which no text may hold',
      expect.stringContaining('remove it'),
    ])
    expect(issuesOf({ author: 'Tab\tName' })[0]?.slice(0, 2)).toEqual([
      'author',
      'holds the control character U+0009, which no text may hold',
    ])
    expect(issuesOf({ doi: '10.5555/a\u001bb' })[0]?.[0]).toBe('doi')
    expect(issuesOf({ image: '/images/a\n.png' })[0]?.[0]).toBe('image')
  })

  it('keep a folded YAML block, which reads as one line', () => {
    const read = readFrontMatter('---\ndescription: >\n  One line\n  folded.\n---\n')
    expect('data' in read && Frontmatter.parse({ ...base, ...read.data }).description).toBe('One line folded.')
  })
})

describe('an ORCID iD written as a link', () => {
  const orcid = (value: string) => issuesOf({ author: undefined, authors: [{ name: 'A', orcid: value }] })

  it('is accepted and read as the bare iD', () => {
    for (const link of ['https://orcid.org/0000-0002-1825-0097', 'http://www.orcid.org/0000-0002-1825-0097/'])
      expect(
        Frontmatter.parse({ ...base, author: undefined, authors: [{ name: 'A', orcid: link }] }).authors[0]?.orcid,
      ).toBe('0000-0002-1825-0097')
  })

  it('gets one error, the one to fix, when it is not an iD', () => {
    expect(orcid('https://orcid.org/0000-0002-1825')).toEqual([
      ['authors.0.orcid', expect.stringContaining('four groups of four digits'), expect.any(String)],
    ])
    expect(orcid('https://orcid.org/people/ada')).toEqual([
      ['authors.0.orcid', expect.stringContaining('not a link'), expect.any(String)],
    ])
    expect(orcid('0000-0002-1825-0098')).toEqual([
      ['authors.0.orcid', expect.stringContaining('check digit'), expect.any(String)],
    ])
  })
})

describe('a YAML error in front matter', () => {
  const problemOf = (yaml: string) => {
    const read = readFrontMatter(`---\n${yaml}\n---\nBody.\n`)
    return 'problem' in read ? read.problem.message : undefined
  }

  it('names the line of the file where the problem starts, not where the parser gave up', () => {
    // The quote on line 2 swallows every line after it.
    expect(problemOf('title: "Hello\ndescription: d\ndate: 2025-03-14\nauthor: A')).toBe(
      'the frontmatter is not valid YAML: the quote opened on line 2 is not closed',
    )
    expect(problemOf('title: T\ntags: [a, b\ndate: 2025-03-14')).toBe(
      'the frontmatter is not valid YAML: the bracket opened on line 3 is not closed',
    )
    expect(problemOf('title: T\ntitle: U')).toBe('the frontmatter is not valid YAML on line 3: Map keys must be unique')
    expect(problemOf('- a list')).toBe('the frontmatter is not a set of fields')
  })
})
