/**
 * The markdown stack Astro runs for an article page today (astro.config.mjs): remark-parse with
 * GFM and smartypants, remark-math, Shiki with dual themes, KaTeX, rehype-sanitize with the
 * article schema, heading ids by github-slugger (with raw HTML parsed before sanitising). Kept as the reference the fast renderer is
 * measured and compared against.
 */
import { createMarkdownProcessor } from '@astrojs/markdown-remark'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import { toText } from 'hast-util-to-text'
import type { Root } from 'hast'
import { articleSanitizeSchema } from '../../../site/lib/sanitize-schema.ts'
import type { RenderedArticle } from './types.ts'

type Processor = Awaited<ReturnType<typeof createMarkdownProcessor>>
let processor: Promise<Processor> | undefined

/**
 * Records the plain text of the finished tree, for the search index. Astro's processor returns
 * only its own metadata, but hands the frontmatter object through by reference: the text rides on it.
 */
function rehypeCollectText() {
  return (tree: Root, file: { data: { astro?: { frontmatter?: Record<string, unknown> } } }) => {
    const out = file.data.astro?.frontmatter
    if (out) out.text = toText(tree)
  }
}

export async function renderWithUnified(markdown: string): Promise<RenderedArticle> {
  processor ??= createMarkdownProcessor({
    remarkPlugins: [remarkMath],
    // Raw HTML is parsed before sanitising: Astro parses it only after the user's plugins, where
    // rehype-sanitize has already dropped it whole.
    rehypePlugins: [rehypeRaw, rehypeKatex, [rehypeSanitize, articleSanitizeSchema], rehypeCollectText],
    shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' } },
  })
  const out: { text?: string } = {}
  const result = await (await processor).render(markdown, { frontmatter: out })
  const headings = result.metadata.headings.map(({ depth, slug, text }) => ({ depth, slug, text }))
  return { html: result.code, headings, text: out.text ?? '' }
}
