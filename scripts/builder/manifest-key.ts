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

/** The live build as the next one compares with it: its state, its articles' metadata by slug. */
export interface LiveList {
  state: ManifestState
  bySlug: ReadonlyMap<string, ArticleMeta>
}

/** A published article whose record differs from the live build's: both, the live one first. */
export interface RecordChange {
  before: ArticleMeta
  now: ArticleMeta
}

/**
 * The articles whose records differ from the live build's, when the list holds the same articles
 * in the same order; undefined when it does not. Only edited articles are compared: an unchanged
 * one's metadata is the live build's own object.
 */
export function recordChanges(published: readonly ArticleMeta[], live: LiveList): RecordChange[] | undefined {
  const order = live.state.order
  if (order?.length !== published.length) return undefined
  const changes: RecordChange[] = []
  for (let i = 0; i < published.length; i++) {
    const now = published[i]!
    if (order[i] !== now.slug) return undefined
    const before = live.bySlug.get(now.slug)
    if (before === now) continue
    if (!before) return undefined
    if (JSON.stringify(manifestRecord(before)) !== JSON.stringify(manifestRecord(now))) changes.push({ before, now })
  }
  return changes
}

/**
 * The key of `published`'s manifest, the live build's when it is the same (see above). `changes`
 * is recordChanges's answer, when the caller has it.
 */
export function manifestKey(
  published: readonly ArticleMeta[],
  live?: LiveList,
  changes = live && recordChanges(published, live),
): string {
  const key = live?.state.manifestKey
  return key !== undefined && changes?.length === 0
    ? key
    : createHash('sha256').update(manifestText(published)).digest('hex')
}
