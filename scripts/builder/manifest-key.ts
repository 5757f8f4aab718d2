/**
 * The key of the manifest Astro builds the list pages from (each published article's record,
 * manifestRecord, newest first): Astro runs again only when it changes. At 50,000 articles the
 * manifest is 19 MB of JSON, a third of a second to write; so the key is the live build's when
 * the list holds the same articles in the same order and no changed article's record differs
 * from its live one (an unchanged article's metadata is the live build's own object), and the
 * manifest is written only when Astro needs it.
 */
import { createHash } from 'node:crypto'
import type { ArticleMeta } from './content.ts'
import { manifestRecord } from './index-entries.ts'

/** What the live build recorded: its manifest's key and its list's slugs, in order. */
export interface ManifestState {
  manifestKey?: string
  order?: string[]
}

/** The manifest of `published`, as Astro reads it. */
export const manifestText = (published: readonly ArticleMeta[]): string => JSON.stringify(published.map(manifestRecord))

/** The key of `published`'s manifest, the live build's when it is the same (see above). */
export function manifestKey(
  published: readonly ArticleMeta[],
  live?: { state: ManifestState; bySlug: ReadonlyMap<string, ArticleMeta> },
): string {
  const { manifestKey: key, order } = live?.state ?? {}
  const same =
    key !== undefined &&
    order?.length === published.length &&
    published.every((m, i) => {
      if (order[i] !== m.slug) return false
      const before = live!.bySlug.get(m.slug)
      return before === m || (!!before && JSON.stringify(manifestRecord(before)) === JSON.stringify(manifestRecord(m)))
    })
  return same ? key : createHash('sha256').update(manifestText(published)).digest('hex')
}
