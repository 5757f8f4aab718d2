/** A render worker: renders each batch it is sent and answers with one result per article. */
import { parentPort } from 'node:worker_threads'
import { renderMarkdown, warmUp } from './render.ts'
import type { RenderedArticle } from './types.ts'
import type { ReferenceInputs, ReferenceProblem } from '../references/index.ts'

export interface BatchRequest {
  batch: number
  markdown: string[]
  /** Each article's bibliographies and style, by its index in `markdown`, when it has any. */
  references?: Array<ReferenceInputs | undefined>
}
/** A failed article: the error, and each citation or cross-reference problem with its line. */
export interface RenderFailure {
  error: string
  problems?: ReferenceProblem[]
}
export type WorkerMessage =
  | { type: 'ready' }
  | {
      type: 'batch'
      batch: number
      /** In the order of the request; a failed article carries its error, the others are unaffected. */
      results: Array<RenderedArticle | RenderFailure>
    }

const port = parentPort!
port.on('message', async (request: BatchRequest) => {
  const results: Array<RenderedArticle | RenderFailure> = []
  for (const [i, markdown] of request.markdown.entries()) {
    try {
      results.push(await renderMarkdown(markdown, request.references?.[i]))
    } catch (e) {
      const problems = (e as { problems?: ReferenceProblem[] }).problems
      results.push({ error: e instanceof Error ? e.message : String(e), ...(problems ? { problems } : {}) })
    }
  }
  port.postMessage({ type: 'batch', batch: request.batch, results } satisfies WorkerMessage)
})
port.postMessage({ type: 'ready' } satisfies WorkerMessage)
// Start the highlighter while the first batch is on its way.
void warmUp()
