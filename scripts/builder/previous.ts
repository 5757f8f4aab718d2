/** The live build a new build starts from: what it was made from, and the files it shares. */
import { existsSync, linkSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { AUTHORIZE_TEMPLATE } from '../../model/build-dir.ts'
import type { ArticleMeta } from './content.ts'
import { liveBuildDir } from './dist.ts'
import type { SearchState } from './search-shards.ts'
import { STATE_FILE, readState } from './state-file.ts'

/** Bump when the layout of a build folder or of its state (state-file.ts) changes: a cold build. */
export const STATE_VERSION = 8

/** What a build folder was made from, so that the next build can reuse its files. */
export interface BuildState {
  version: number
  /** Site sources and BASE_URL: the article template's inputs. */
  templateKey: string
  /** The renderer and the build code that made the article pages: pages are reused only under the same. */
  assemblyKey: string
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

export interface Previous {
  dir: string
  state: BuildState
  template: string
  bySlug: Map<string, ArticleMeta>
}

/** Files of a build folder that the build writes itself; every other top-level file is the post index's. */
const OWN_FILES = new Set([
  'build.json',
  STATE_FILE,
  'template.html',
  AUTHORIZE_TEMPLATE,
  'manifest.json',
  'openapi.json',
])

/** The templates Astro built that are not pages of the site: the article page's and the authorization pages'. */
export function linkTemplates(from: string, to: string): void {
  linkSync(join(from, 'template.html'), join(to, 'template.html'))
  linkSync(join(from, AUTHORIZE_TEMPLATE), join(to, AUTHORIZE_TEMPLATE))
}

/** Links the post index's files (whatever their names) from one build folder into another. */
export function linkTopFiles(from: string, to: string): void {
  for (const e of readdirSync(from, { withFileTypes: true }))
    if (e.isFile() && !OWN_FILES.has(e.name) && !existsSync(join(to, e.name)))
      linkSync(join(from, e.name), join(to, e.name))
}

/** The live build of this configuration and what it was made from, when it can be reused. */
export function readPrevious(distDir: string, key: string): Previous | undefined {
  const dir = liveBuildDir(distDir, key)
  if (!dir) return undefined
  try {
    const state = readState(dir)
    if (state?.version !== STATE_VERSION) return undefined
    return {
      dir,
      state,
      template: readFileSync(join(dir, 'template.html'), 'utf8'),
      bySlug: new Map(state.articles.map((a) => [a.slug, a])),
    }
  } catch {
    return undefined
  }
}
