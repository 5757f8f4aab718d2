/**
 * The article renderer: markdown to sanitised HTML with highlighted code and KaTeX math, its
 * headings and its plain text, in the calling thread or in a pool of worker threads.
 */
import { RENDER_OPTIONS, RENDER_PACKAGES } from './options.ts'
import { rendererVersion } from './version.ts'

export type { RenderedArticle } from './types.ts'
export { renderMarkdown } from './render.ts'
export { createRenderPool, type RenderPool } from './pool.ts'

/** Changes whenever the HTML could change: library versions, rendering options, the renderer's code. */
export const RENDERER_VERSION: string = rendererVersion(RENDER_PACKAGES, RENDER_OPTIONS)
