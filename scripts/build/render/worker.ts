/** A render worker: renders each batch it is sent and answers with one result per article. */
import { parentPort } from 'node:worker_threads'
import { renderMarkdown } from './render.ts'
import type { RenderedArticle } from './types.ts'

export interface BatchRequest {
  batch: number
  markdown: string[]
}
export interface BatchReply {
  batch: number
  /** In the order of the request; a failed article carries its error, the others are unaffected. */
  results: Array<RenderedArticle | { error: string }>
}

parentPort?.on('message', async (request: BatchRequest) => {
  const results: BatchReply['results'] = []
  for (const markdown of request.markdown) {
    try {
      results.push(await renderMarkdown(markdown))
    } catch (e) {
      results.push({ error: e instanceof Error ? e.message : String(e) })
    }
  }
  parentPort!.postMessage({ batch: request.batch, results } satisfies BatchReply)
})
