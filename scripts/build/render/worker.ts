/** A render worker: renders each batch it is sent and answers with one result per article. */
import { parentPort } from 'node:worker_threads'
import { renderMarkdown, warmUp } from './render.ts'
import type { RenderedArticle } from './types.ts'

export interface BatchRequest {
  batch: number
  markdown: string[]
}
export type WorkerMessage =
  | { type: 'ready' }
  | {
      type: 'batch'
      batch: number
      /** In the order of the request; a failed article carries its error, the others are unaffected. */
      results: Array<RenderedArticle | { error: string }>
    }

const port = parentPort!
port.on('message', async (request: BatchRequest) => {
  const results: Array<RenderedArticle | { error: string }> = []
  for (const markdown of request.markdown) {
    try {
      results.push(await renderMarkdown(markdown))
    } catch (e) {
      results.push({ error: e instanceof Error ? e.message : String(e) })
    }
  }
  port.postMessage({ type: 'batch', batch: request.batch, results } satisfies WorkerMessage)
})
port.postMessage({ type: 'ready' } satisfies WorkerMessage)
// Start the highlighter while the first batch is on its way.
void warmUp()
