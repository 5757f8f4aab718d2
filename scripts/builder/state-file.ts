/**
 * A build folder's `state.ndjson`: what the build was made from (BuildState), for the next build
 * to reuse its files. The first line holds the keys, the search shards and the llms-full.txt
 * spans; then one line per article, `[meta, stat signature | null, nav key | null]`.
 *
 * An edit at 50,000 articles reads the state once and writes it twice (the pages' landing, then
 * the search index's), 34 MB each time. Each article's line is remembered as its bytes in the
 * file read (a view, not a copy), with the metadata object it was parsed into, and written again
 * as those bytes while that object and its signature and nav key are the same (an unchanged
 * article's metadata is the live build's own object). Nothing joins 50,000 lines into one string
 * or one buffer: decoding and joining the file whole cost 0.25 s to read and 0.45 s to write.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eachLine, lineEnd, writeLinesSync } from '../../post-index/line-file.ts'
import type { ArticleMeta } from './content.ts'
import type { SearchState } from './search-shards.ts'

export const STATE_FILE = 'state.ndjson'

/** What a build folder was made from, so that the next build can reuse its files. */
export interface BuildState {
  version: number
  /** Site sources and BASE_URL: the article template's inputs. */
  templateKey: string
  /** The renderer and the build code that made the article pages: pages are reused only under the same. */
  assemblyKey: string
  /** What Astro read besides the manifest: only the list pages of changed cards are made again under the same. */
  astroInputsKey?: string
  /** Everything Astro read: its output is reused when this is unchanged. */
  astroKey: string
  /** The key of the list pages' manifest, and the list's slugs in order (manifest-key.ts). */
  manifestKey?: string
  order?: string[]
  /** The shards of the search index in site/pagefind, or null when there is none. */
  search: SearchState | null
  /** Every valid article, drafts included. */
  articles: ArticleMeta[]
  /** Per article, the stat signature under which its file had its hash (source-stats.ts); absent: read it. */
  sources?: Record<string, string>
  /** Per article page, a hash of its links to other articles: the page is reused only if they are the same. */
  navKeys?: Record<string, string>
  /** What the pages' links follow from, and each page's related articles (article-links.ts). */
  linksKey?: string
  related?: number[][]
  /** Each page's citing articles (references/cited-by.ts). */
  citedBy?: number[][]
  /** Where each published article is in site/llms-full.txt (llms-full.ts), when known. */
  llmsFull?: Record<string, [number, number]>
}

type Head = Omit<BuildState, 'articles' | 'sources' | 'navKeys'>

/** Each article's line (its bytes, no newline), by the metadata object it was made from, with what else it holds. */
const lines = new WeakMap<ArticleMeta, { bytes: Uint8Array; source: string | undefined; nav: string | undefined }>()

/** The state in `dir`; undefined when there is none. Throws on a file that is not one. */
export function readState(dir: string): BuildState | undefined {
  let bytes: Buffer
  try {
    bytes = readFileSync(join(dir, STATE_FILE))
  } catch {
    return undefined
  }
  const headEnd = lineEnd(bytes, 0)
  const head = JSON.parse(bytes.toString('utf8', 0, headEnd)) as Head
  const articles: ArticleMeta[] = []
  const sources: Record<string, string> = {}
  const navKeys: Record<string, string> = {}
  eachLine(bytes, headEnd + 1, (start, end) => {
    // Line by line: a line without accents decodes to a one-byte string, which parses faster.
    const [meta, source, nav] = JSON.parse(bytes.toString('utf8', start, end)) as [
      ArticleMeta,
      string | null,
      string | null,
    ]
    articles.push(meta)
    if (source !== null) sources[meta.slug] = source
    if (nav !== null) navKeys[meta.slug] = nav
    lines.set(meta, { bytes: bytes.subarray(start, end), source: source ?? undefined, nav: nav ?? undefined })
  })
  return { ...head, articles, sources, navKeys }
}

/** Writes `state` into `dir`. */
export function writeState(dir: string, state: BuildState): void {
  const { articles, sources, navKeys, ...head } = state
  const out: Uint8Array[] = [Buffer.from(JSON.stringify(head))]
  for (const meta of articles) {
    const source = sources?.[meta.slug]
    const nav = navKeys?.[meta.slug]
    const known = lines.get(meta)
    if (known && known.source === source && known.nav === nav) out.push(known.bytes)
    else {
      const bytes = Buffer.from(JSON.stringify([meta, source ?? null, nav ?? null]))
      lines.set(meta, { bytes, source, nav })
      out.push(bytes)
    }
  }
  writeLinesSync(join(dir, STATE_FILE), out)
}
