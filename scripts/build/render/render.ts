/** The renderer the build uses, in the calling thread. */
import { renderWithUnified } from './unified-renderer.ts'
import type { RenderedArticle } from './types.ts'

export function renderMarkdown(markdown: string): Promise<RenderedArticle> {
  return renderWithUnified(markdown)
}
