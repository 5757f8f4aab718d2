/** What a caller of build() (scripts/build.ts) may choose besides the environment. */
import type { Renderer } from './entries.ts'
import type { HeapLimits } from './memory-plan.ts'
import type { Previous } from './previous.ts'
import type { ContentListing, ContentScan } from './source-stats.ts'

export interface BuildOptions {
  /** false: skip the site search index (the live preview); the previous one, if any, stays. */
  search?: boolean
  /** Progress lines, e.g. console.log. */
  log?: (line: string) => void
  /** The markdown renderer; scripts/builder/renderer.ts unless a test swaps in another configuration. */
  renderer?: Renderer
  /**
   * The live preview: when articles changed what the list pages show, their pages land before
   * Astro rebuilds the lists, so a writer sees an edit sooner. Otherwise a build lands when
   * every part of it is written, its search index landing after its pages when there is a live
   * index to serve meanwhile (scripts/build.ts).
   */
  landEarly?: boolean
  /** Articles per search shard, and heap limits, instead of what the memory plan chooses (tests). */
  shardArticles?: number
  heaps?: Partial<HeapLimits>
  /**
   * The live build read ahead, while a warm builder was idle (scripts/builder-service/warm-previous.ts),
   * or undefined: the build then reads its state (previous.ts).
   */
  previous?: (distDir: string, key: string) => Previous | undefined
  /**
   * A warm builder's scan of the content folder, the files a watch saw change stat'ed now and the
   * others' stats taken while it was idle (scripts/builder-service/content-watch.ts); undefined
   * when it cannot vouch for them, and the build stats every file.
   */
  scan?: (contentDir: string, listing: ContentListing) => Promise<ContentScan | undefined>
}
