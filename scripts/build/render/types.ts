/** One article body, rendered: what the build keeps per content hash. */
export interface RenderedArticle {
  /** Sanitised body HTML: highlighted code, KaTeX math, heading ids. */
  html: string
  headings: Array<{ depth: number; slug: string; text: string }>
  /** Plain text of the body, for the site search index. */
  text: string
}
