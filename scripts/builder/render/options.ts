/**
 * What an article's HTML depends on besides its markdown: the libraries that render it and the
 * options they run with. RENDERER_VERSION is derived from both (and from this folder's code), so
 * changing any of them invalidates every cached render.
 */
import { articleSanitizeSchema } from '../../../site/lib/sanitize-schema.ts'
import { KEEP_TOGETHER } from '../../../site/lib/typography.ts'

export const RENDER_PACKAGES = [
  'satteri',
  'shiki',
  'katex',
  'hast-util-sanitize',
  'hast-util-to-html',
  'github-slugger',
  // Citations: BibTeX and CSL-JSON read, citeproc-js run, its HTML parsed and sanitised.
  '@citation-js/core',
  '@citation-js/plugin-bibtex',
  '@citation-js/plugin-csl',
  'citeproc',
  'hast-util-from-html',
  'fastest-levenshtein',
] as const

export const RENDER_OPTIONS = {
  /**
   * Markdown syntax: GFM (tables, strikethrough, autolinks, task lists, footnotes) and `$`/`$$`
   * math. The build hands over the body alone: a leading `---` is a rule, not frontmatter.
   */
  features: { gfm: true, math: true, frontmatter: false },
  /**
   * Curly quotes and ellipses; dashes follow SmartyPants as the site always had them
   * ("--" is an em dash), see render.ts.
   */
  smartPunctuation: { quotes: true, ellipses: true, dashes: 'smartypants' },
  /** Code: Shiki, light and dark colours in one pass; the site CSS switches with --shiki-dark. */
  themes: { light: 'github-light', dark: 'github-dark' },
  /**
   * No time limit per line (Shiki's default is 500 ms): on a busy machine the first line of a
   * language, while its grammar compiles, can exceed it, and Shiki then leaves the rest of the
   * line in one token's colour. A cached render must not depend on the machine's load.
   */
  tokenizeTimeLimit: 0,
  /** KaTeX's own safety: no command may write links, classes, styles or images. */
  katex: { trust: false },
  /** No-break spaces between a number and its unit, and around a short relation. */
  keepTogether: KEEP_TOGETHER,
  /** Raw HTML in an article is kept, then sanitised with the site's schema. */
  sanitize: articleSanitizeSchema,
} as const
