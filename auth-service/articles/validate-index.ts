import type { IndexedPost } from './post.ts'

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

export class IndexError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'IndexError'
  }
}

/**
 * Checks the build's post index before the service trusts it: the site and the service are built
 * separately, so a stale or hand-edited file must fail loudly here, not as a 500 later.
 */
export function validateIndex(data: unknown): IndexedPost[] {
  if (!isObject(data) || data.version !== 1 || !Array.isArray(data.posts))
    throw new IndexError('post index: expected {"version": 1, "posts": [...]}')
  const seen = new Set<string>()
  return data.posts.map((raw, i) => {
    const at = `post index: posts[${i}]`
    if (!isObject(raw)) throw new IndexError(`${at} is not an object`)
    const str = (field: string): string => {
      const v = raw[field]
      if (typeof v !== 'string') throw new IndexError(`${at}.${field} must be a string`)
      return v
    }
    const slug = str('slug')
    if (!SLUG.test(slug)) throw new IndexError(`${at}.slug "${slug}" is not a slug`)
    if (seen.has(slug)) throw new IndexError(`${at}.slug "${slug}" appears twice`)
    seen.add(slug)
    const date = str('date')
    if (!DATE.test(date)) throw new IndexError(`${at}.date must be YYYY-MM-DD`)
    const lastModified = str('lastModified')
    if (Number.isNaN(Date.parse(lastModified))) throw new IndexError(`${at}.lastModified must be a date-time`)
    const tags = raw.tags
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) throw new IndexError(`${at}.tags must be strings`)
    const image = raw.image
    if (image !== undefined && typeof image !== 'string') throw new IndexError(`${at}.image must be a string`)
    const readingMinutes = raw.readingMinutes
    if (typeof readingMinutes !== 'number') throw new IndexError(`${at}.readingMinutes must be a number`)
    return {
      slug,
      title: str('title'),
      description: str('description'),
      date,
      lastModified,
      author: str('author'),
      tags: tags as string[],
      ...(image === undefined ? {} : { image }),
      readingMinutes,
      markdown: str('markdown'),
    }
  })
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
