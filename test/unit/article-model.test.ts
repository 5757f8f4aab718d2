import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ARTICLE_FIELDS, Frontmatter, Post, toPost, type IndexEntry } from '../../model/article.ts'
import { ARTICLE_PAGE_PATTERN, articlePath } from '../../model/article-address.ts'
import { SCHEMAS } from '../../auth-service/openapi/schemas.ts'
import { SAMPLE_POST } from '../../auth-service/routes/openapi-parts.ts'
import { ARTICLES_CONF, BUCKETS_CONF, articlesConf, bucketsConf } from '../../scripts/deploy/nginx-articles.ts'

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
