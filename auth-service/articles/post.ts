/** One article as the build's post index carries it (URLs relative; see site/pages/post-index.json.ts). */
export interface IndexedPost {
  readonly slug: string
  readonly title: string
  readonly description: string
  /** `YYYY-MM-DD` */
  readonly date: string
  /** ISO 8601 UTC date-time */
  readonly lastModified: string
  readonly author: string
  readonly tags: readonly string[]
  /** A site path or an absolute URL; absent means the default cover. */
  readonly image?: string
  readonly readingMinutes: number
  readonly markdown: string
}

/** The wire form of a Post (spec §2): every field, absolute URLs. */
export interface Post {
  slug: string
  title: string
  description: string
  date: string
  lastModified: string
  author: string
  tags: string[]
  url: string
  markdown_url: string
  image: string
}

export const DEFAULT_IMAGE_PATH = '/images/default-cover.svg'

export function toPost(p: Omit<IndexedPost, 'markdown'>, baseUrl: string): Post {
  return {
    slug: p.slug,
    title: p.title,
    description: p.description,
    date: p.date,
    lastModified: p.lastModified,
    author: p.author,
    tags: [...p.tags],
    url: `${baseUrl}/posts/${p.slug}`,
    markdown_url: `${baseUrl}/posts/${p.slug}.md`,
    image: new URL(p.image ?? DEFAULT_IMAGE_PATH, baseUrl + '/').href,
  }
}
