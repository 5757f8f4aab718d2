/**
 * The markdown renderer the build uses (scripts/builder/render/), loaded only when an article
 * needs rendering: a rebuild where everything is cached never pays for loading the parser,
 * the highlighter and KaTeX.
 */
import { RENDER_OPTIONS, RENDER_PACKAGES } from './render/options.ts'
import { rendererVersion } from './render/version.ts'
import type { RenderedArticle } from './render/types.ts'
import type { ReferenceInputs } from './references/index.ts'
import type { HeapLimit } from './heap-limits.ts'

export type { RenderedArticle }

/** scripts/builder/render/index.ts's RENDERER_VERSION, computed without loading the renderer. */
export const RENDERER_VERSION: string = rendererVersion(RENDER_PACKAGES, RENDER_OPTIONS)

const load = () => import('./render/index.ts')

export async function renderMarkdown(markdown: string, references?: ReferenceInputs): Promise<RenderedArticle> {
  return (await load()).renderMarkdown(markdown, references)
}

export function createRenderPool(options: { threads?: number; heap?: HeapLimit } = {}): {
  render(markdown: string, references?: ReferenceInputs): Promise<RenderedArticle>
  close(): Promise<void>
} {
  const pool = load().then((r) => r.createRenderPool(options))
  return {
    render: async (markdown, references) => (await pool).render(markdown, references),
    close: async () => (await pool).close(),
  }
}
