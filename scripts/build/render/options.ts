/**
 * What an article's HTML depends on besides its markdown: the libraries that render it and the
 * options they run with. RENDERER_VERSION is derived from both.
 */
import { articleSanitizeSchema } from '../../../site/lib/sanitize-schema.ts'

export const RENDER_PACKAGES = [
  '@astrojs/markdown-remark', 'remark-math', 'rehype-katex', 'rehype-sanitize', 'katex', 'shiki',
] as const

export const RENDER_OPTIONS = {
  /** Bumped by hand when our own rendering code changes what it writes. */
  revision: 1,
  themes: { light: 'github-light', dark: 'github-dark' },
  sanitize: articleSanitizeSchema,
} as const
