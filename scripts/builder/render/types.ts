import type { CslItem } from '../references/bibliography.ts'

/** One article body, rendered: what the build keeps per content hash. */
export interface RenderedArticle {
  /** Sanitised body HTML: highlighted code, KaTeX math, heading ids. */
  html: string
  headings: Array<{ depth: number; slug: string; text: string }>
  /** The prose, for the search index and the excerpt: code blocks and displayed TeX left out. */
  text: string
  /**
   * For an article that cites or cross-references: its markdown as readers get it (citations and
   * numbers written out, a References section), for the twin, the API and llms-full.txt.
   */
  markdown?: string
  /** The works it cites, as CSL-JSON items, in the order of its References list. */
  references?: CslItem[]
}
