/** The markdown renderer the build uses: scripts/build/render/ (worker threads, a fast parser). */
export { RENDERER_VERSION, createRenderPool, renderMarkdown, type RenderedArticle } from './render/index.ts'
