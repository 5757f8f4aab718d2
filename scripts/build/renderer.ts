/**
 * The markdown renderer the build uses (interface of scripts/build/render/). Until the worker
 * pool lands this is Astro's own unified pipeline run in-thread, with the options the site's
 * Astro configuration used: the same HTML as before, one article at a time.
 */
import { createMarkdownProcessor, type MarkdownRenderer } from '@astrojs/markdown-remark'
import rehypeKatex from 'rehype-katex'
import rehypeSanitize from 'rehype-sanitize'
import remarkMath from 'remark-math'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { articleSanitizeSchema } from '../../site/lib/sanitize-schema.ts'

export interface RenderedArticle {
  html: string
  headings: Array<{ depth: number; slug: string; text: string }>
  text: string
}

const MODULES = join(import.meta.dirname, '..', '..', 'node_modules')
const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(MODULES, pkg, 'package.json'), 'utf8')) as { version: string }).version

/** Changes whenever the output could: the libraries' versions and the options below. */
export const RENDERER_VERSION = [
  'unified-1',
  ...['@astrojs/markdown-remark', 'shiki', 'katex', 'rehype-katex', 'remark-math', 'rehype-sanitize'].map((p) => `${p}@${versionOf(p)}`),
].join(' ')

let processor: Promise<MarkdownRenderer> | undefined
const getProcessor = () =>
  (processor ??= createMarkdownProcessor({
    remarkPlugins: [remarkMath],
    rehypePlugins: [rehypeKatex, [rehypeSanitize, articleSanitizeSchema]],
    shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' } },
  }))

export async function renderMarkdown(markdown: string): Promise<RenderedArticle> {
  const { code, metadata } = await (await getProcessor()).render(markdown)
  return {
    html: code,
    headings: metadata.headings.map(({ depth, slug, text }) => ({ depth, slug, text })),
    text: htmlToText(code),
  }
}

export function createRenderPool(_options?: { threads?: number }): {
  render(markdown: string): Promise<RenderedArticle>
  close(): Promise<void>
} {
  return { render: renderMarkdown, close: async () => {} }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' }

/** The visible text of rendered HTML: MathML annotations and tags dropped, whitespace collapsed. */
function htmlToText(html: string): string {
  return html
    .replace(/<annotation[\s\S]*?<\/annotation>/g, ' ')
    .replace(/<span class="katex-html"[\s\S]*?<\/span><\/span>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#?\w+);/g, (m, e: string) => ENTITIES[e] ?? m)
    .replace(/\s+/g, ' ')
    .trim()
}
