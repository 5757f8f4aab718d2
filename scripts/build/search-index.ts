/**
 * The site search index: Pagefind fed with one custom record per article, made from the text
 * the renderer extracted (no page is parsed again). Pagefind has no incremental mode, so the
 * whole index is rewritten when any article changed; the build swaps it in after the pages.
 */
import { join } from 'node:path'
import * as pagefind from 'pagefind'

export interface SearchRecord {
  url: string
  title: string
  author: string
  /** The text of the article: title, description and body. */
  content: string
}

export async function writeSearchIndex(siteDir: string, records: AsyncIterable<SearchRecord>): Promise<void> {
  const { index, errors } = await pagefind.createIndex({})
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`)
  try {
    for await (const r of records) {
      const added = await index.addCustomRecord({
        url: r.url,
        content: r.content,
        language: 'en',
        meta: { title: r.title },
        filters: { author: [r.author] },
      })
      if (added.errors.length) throw new Error(`pagefind: ${r.url}: ${added.errors.join('; ')}`)
    }
    const written = await index.writeFiles({ outputPath: join(siteDir, 'pagefind') })
    if (written.errors.length) throw new Error(`pagefind: ${written.errors.join('; ')}`)
  } finally {
    await pagefind.close()
  }
}
