/**
 * The list pages an edit reaches. Astro builds every list page (the home page's, each tag's and
 * each author's, about 11,000 at 50,000 articles) from the manifest: 16.6 to 34.8 s on the
 * machines measured, where an edit the lists do not show is live in 2 to 3 s (docs/benchmark.md,
 * Scale). When the edit changed only what articles' cards show (a title, a description, the
 * reading time) and neither which lists hold them, their order, nor the sitemap, only the pages
 * that show a changed card differ. Astro then makes those
 * (site/lib/changed-cards.ts reads their slugs from CHANGED_CARDS_FILE) and the pages that are no
 * list (feeds, llms.txt, the indexes of tags and authors); every other page is the live build's.
 */
import { mkdirSync, readdirSync, renameSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { ArticleMeta } from './content.ts'
import { manifestRecord } from './index-entries.ts'
import type { ManifestState } from './manifest-key.ts'

/** What places an article in the lists and the sitemap: a change to any of them rebuilds every list. */
const PLACEMENT = ['date', 'lastModified', 'tags', 'authors'] as const satisfies ReadonlyArray<keyof ArticleMeta>

/**
 * The slugs whose cards changed when nothing else Astro shows did, else undefined (every list
 * page is built). `live` is the live build's, Astro's other inputs (site, OpenAPI document,
 * About page) the same as this build's.
 */
export function changedCards(
  published: readonly ArticleMeta[],
  live: { state: ManifestState; bySlug: ReadonlyMap<string, ArticleMeta> },
): string[] | undefined {
  const order = live.state.order
  if (order?.length !== published.length) return undefined
  const changed: string[] = []
  for (let i = 0; i < published.length; i++) {
    const m = published[i]!
    if (order[i] !== m.slug) return undefined
    const before = live.bySlug.get(m.slug)
    // An unchanged article's metadata is the live build's own object (manifest-key.ts).
    if (before === m) continue
    if (!before) return undefined
    if (PLACEMENT.some((k) => JSON.stringify(before[k]) !== JSON.stringify(m[k]))) return undefined
    if (JSON.stringify(manifestRecord(before)) !== JSON.stringify(manifestRecord(m))) changed.push(m.slug)
  }
  return changed
}

/**
 * Astro's pages of a build of changed cards, moved over `siteDir` (the live build's pages, linked).
 * A rename replaces the link, never the live build's file. The sitemap stays the live build's:
 * Astro's lists only the pages it made, and the pages are the same.
 */
export function overlayPages(madeDir: string, siteDir: string): number {
  let moved = 0
  const walk = (rel: string) => {
    for (const e of readdirSync(join(madeDir, rel), { withFileTypes: true })) {
      const path = rel ? join(rel, e.name) : e.name
      if (e.isDirectory()) walk(path)
      else if (!(rel === '' && /^sitemap-.*\.xml$/.test(e.name))) {
        mkdirSync(dirname(join(siteDir, path)), { recursive: true })
        renameSync(join(madeDir, path), join(siteDir, path))
        moved++
      }
    }
  }
  walk('')
  return moved
}
