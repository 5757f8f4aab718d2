/**
 * A build folder's `state.ndjson`: what the build was made from (BuildState), for the next build
 * to reuse its files. The first line holds the keys, the search shards and the llms-full.txt
 * spans; then one line per article, `[meta, stat signature | null, nav key | null]`.
 *
 * An edit at 50,000 articles writes the state twice (the pages' landing, then the search
 * index's), 30 MB each time: so each article's line is remembered with the metadata object it
 * was read or written as, and written again as it is while that object and its signature and
 * nav key are the same (an unchanged article's metadata is the live build's own object).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
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

/** Each article's line, by the metadata object it was made from, with what else it holds. */
const lines = new WeakMap<ArticleMeta, { line: string; source: string | undefined; nav: string | undefined }>()

/** The state in `dir`; undefined when there is none. Throws on a file that is not one. */
export function readState(dir: string): BuildState | undefined {
  let text: string
  try {
    text = readFileSync(join(dir, STATE_FILE), 'utf8')
  } catch {
    return undefined
  }
  let at = text.indexOf('\n')
  const head = JSON.parse(at < 0 ? text : text.slice(0, at)) as Head
  const articles: ArticleMeta[] = []
  const sources: Record<string, string> = {}
  const navKeys: Record<string, string> = {}
  while (at >= 0 && at + 1 < text.length) {
    const next = text.indexOf('\n', at + 1)
    const line = text.slice(at + 1, next < 0 ? undefined : next)
    at = next
    if (!line) continue
    const [meta, source, nav] = JSON.parse(line) as [ArticleMeta, string | null, string | null]
    articles.push(meta)
    if (source !== null) sources[meta.slug] = source
    if (nav !== null) navKeys[meta.slug] = nav
    lines.set(meta, { line, source: source ?? undefined, nav: nav ?? undefined })
  }
  return { ...head, articles, sources, navKeys }
}

/** Writes `state` into `dir`. */
export function writeState(dir: string, state: BuildState): void {
  const { articles, sources, navKeys, ...head } = state
  const out = [JSON.stringify(head)]
  for (const meta of articles) {
    const source = sources?.[meta.slug]
    const nav = navKeys?.[meta.slug]
    const known = lines.get(meta)
    if (known && known.source === source && known.nav === nav) out.push(known.line)
    else {
      const line = JSON.stringify([meta, source ?? null, nav ?? null])
      lines.set(meta, { line, source, nav })
      out.push(line)
    }
  }
  writeFileSync(join(dir, STATE_FILE), `${out.join('\n')}\n`)
}
