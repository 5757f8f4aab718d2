/**
 * The figures the build's memory plan (memory-plan.ts) and its heap limits (heap-limits.ts) are
 * made of. The figures are measured peaks (`npm run bench -- --scale` prints the real ones beside
 * them), with a margin; see docs/benchmark.md for the measurements they come from.
 */

/**
 * Peak resident memory, in MB, of each part of a build: measured on the bench's corpus (articles
 * of 1,500 to 4,000 words) at 10,000 and 50,000 articles, with a margin.
 */
export const MEMORY_MODEL = {
  /** This process while the articles render or Astro runs: every article's metadata and the manifest. */
  buildMb: (articles: number) => 320 + articles * 0.007,
  /** One render thread: its heap (highlighter, grammars, formula caches) and its share of native memory. */
  renderThreadMb: 350,
  /** Astro's process building the list pages, feeds, sitemap and llms.txt from the manifest. */
  astroMb: (articles: number) => 700 + articles * 0.011,
  /** This process writing the pages, the post index and the edge files, its render threads ended. */
  assembleMb: (articles: number) => 480 + articles * 0.004,
  /** This process while the search shards are indexed: its metadata of every article, no texts. */
  searchParentMb: (articles: number) => 480 + articles * 0.003,
  /** One shard process: Node, Pagefind, and Pagefind's index of its articles (about 1 MB each). */
  shardMb: (articles: number) => 150 + articles * 1.0,
  /**
   * One shard's score process (search-score-worker.ts), after its Pagefind process has ended:
   * Node, one chunk of the word index, and every page's places as text (83 MB at 60 articles,
   * 172 and 190 MB at 570 and 670, 197 and 201 MB at 986 and 1,014).
   */
  scoreMb: (articles: number) => 110 + articles * 0.15,
}
