/** One article body, rendered: what the build keeps per content hash. */
export interface RenderedArticle {
  /** Sanitised body HTML: highlighted code, KaTeX math, heading ids. */
  html: string
  headings: Array<{ depth: number; slug: string; text: string }>
  /** The prose, for the search index and the excerpt: code blocks and displayed TeX left out. */
  text: string
}
