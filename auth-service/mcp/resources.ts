import type {
  ListResourcesResult,
  ReadResourceResult,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server'
import type { Post, PostDetail } from '../../model/article.ts'
import { markdownTwin } from '../../model/markdown-twin.ts'
import type { PostIndex } from '../../post-index/post-index.ts'
import { POSTS_PATH } from '../../model/article-address.ts'
import { MCP_LIMITS } from '../defaults.ts'
import { RPC_CODES, RpcError } from './rpc-error.ts'

const MARKDOWN = 'text/markdown'

/**
 * Every article as an MCP resource: its URI is its markdown twin's address (`markdown_url`,
 * `{base}/posts/{slug}.md`), which a client may also fetch directly, and reading it gives that
 * twin's very text (its header of title, authors, DOI, licence and changes, then the body), made
 * from the loaded index by the function the build writes the twin with.
 */
export function articleResources(baseUrl: string, posts: () => PostIndex) {
  const prefix = `${baseUrl}${POSTS_PATH}/`
  // The listing of each loaded index, made on its first listing: an index never changes, a rebuild swaps in another.
  const listings = new WeakMap<PostIndex, Post[]>()
  const listing = (index: PostIndex) => {
    let list = listings.get(index)
    if (!list) {
      list = (JSON.parse(index.latest(index.size).body.toString()) as { posts: Post[] }).posts
      listings.set(index, list)
    }
    return list
  }

  const template: ResourceTemplate = {
    uriTemplate: `${prefix}{slug}.md`,
    name: 'article',
    title: 'An article as markdown',
    description: 'One article’s markdown twin: its metadata, then its body; {slug} is its slug (as in get_post).',
    mimeType: MARKDOWN,
  }

  return {
    templates: (): { resourceTemplates: ResourceTemplate[] } => ({ resourceTemplates: [template] }),

    /** A page of the articles, newest first; the cursor is the position after the last one given. */
    list(cursor: string | undefined): ListResourcesResult {
      const list = listing(posts())
      const start = cursor === undefined ? 0 : after(list, decodeCursor(cursor))
      const page = list.slice(start, start + MCP_LIMITS.resourcesPerPage)
      const end = start + page.length
      return {
        resources: page.map((p) => ({
          uri: p.markdown_url,
          name: p.slug,
          title: p.title,
          description: p.description,
          mimeType: MARKDOWN,
          annotations: { lastModified: p.lastModified },
        })),
        ...(end < list.length ? { nextCursor: encodeCursor(list[end - 1]!) } : {}),
      }
    },

    read(uri: string): ReadResourceResult {
      const slug = uri.startsWith(prefix) && uri.endsWith('.md') ? uri.slice(prefix.length, -3) : undefined
      const detail = slug === undefined ? undefined : posts().detail(slug)
      if (!detail) throw new RpcError(RPC_CODES.resourceNotFound, 'Resource not found', { uri: uri.slice(0, 300) })
      const { markdown, ...post } = JSON.parse(detail.body.toString()) as PostDetail
      return { contents: [{ uri, mimeType: MARKDOWN, text: markdownTwin(post, markdown) }] }
    },
  }
}

/** A position in the list order (newest first, then slug): stays meaningful across a rebuild, unlike an offset. */
type Position = { date: string; slug: string }

function encodeCursor(p: Post): string {
  return Buffer.from(JSON.stringify([p.date, p.slug])).toString('base64url')
}

function decodeCursor(cursor: string): Position {
  try {
    const [date, slug] = JSON.parse(Buffer.from(cursor.slice(0, 400), 'base64url').toString()) as unknown[]
    if (typeof date === 'string' && typeof slug === 'string') return { date, slug }
  } catch {
    // falls through to the refusal
  }
  throw new RpcError(RPC_CODES.invalidParams, 'The cursor is not one this server gave; list again without it.')
}

/** The index of the first post after `p` in the list order (binary search: the list is sorted). */
function after(list: readonly Post[], p: Position): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const m = list[mid]!
    const before = m.date > p.date || (m.date === p.date && m.slug <= p.slug)
    if (before) lo = mid + 1
    else hi = mid
  }
  return lo
}
