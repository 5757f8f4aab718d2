/**
 * The list pages an edit reaches. Astro builds every list page (the home page's, each tag's and
 * each author's, about 11,000 at 50,000 articles) from the manifest: 16.6 to 34.8 s on the
 * machines measured, where an edit the lists do not show is live in 2 to 3 s (docs/benchmark.md,
 * Scale). When the edit changed only what articles' cards show (a title, a description, the
 * reading time) and neither which lists hold them, their order, nor the sitemap, only the pages
 * that show a changed card differ. Astro then makes those (site/lib/changed-cards.ts reads their
 * slugs from CHANGED_CARDS_FILE) and the pages that are no list (feeds, llms.txt, the indexes of
 * tags and authors); every other page is the live build's.
 */
import { mkdirSync, readdirSync, renameSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { ArticleMeta } from './content.ts'
import type { RecordChange } from './manifest-key.ts'

/** What places an article in the lists and the sitemap: a change to any of them rebuilds every list. */
const PLACEMENT = ['date', 'lastModified', 'tags', 'authors'] as const satisfies ReadonlyArray<keyof ArticleMeta>

/**
 * The slugs whose cards changed, of the changed records of a list in the live build's order
 * (manifest-key.ts, recordChanges); undefined when one of them moved an article between lists or
 * in the sitemap, and every list page is built.
 */
export function changedCards(changes: readonly RecordChange[]): string[] | undefined {
  const placed = ({ before, now }: RecordChange) =>
    PLACEMENT.every((k) => JSON.stringify(before[k]) === JSON.stringify(now[k]))
  return changes.every(placed) ? changes.map((c) => c.now.slug) : undefined
}

/**
 * Astro's pages of a build of changed cards, moved over `siteDir` (the live build's pages, linked).
 * A rename replaces the link, never the live build's file. Astro makes no sitemap in such a build
 * (astro.config.mjs): the live build's is kept, since the pages and their dates are the same.
 */
export function overlayPages(madeDir: string, siteDir: string): number {
  let moved = 0
  const walk = (rel: string) => {
    for (const e of readdirSync(join(madeDir, rel), { withFileTypes: true })) {
      const path = rel ? join(rel, e.name) : e.name
      if (e.isDirectory()) walk(path)
      else {
        mkdirSync(dirname(join(siteDir, path)), { recursive: true })
        renameSync(join(madeDir, path), join(siteDir, path))
        moved++
      }
    }
  }
  walk('')
  return moved
}
