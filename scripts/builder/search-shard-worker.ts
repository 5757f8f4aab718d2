/**
 * One shard of the site search index (search-shards.ts), in a process of its own: reads its job
 * on standard input, each article's text from the build cache, and writes a Pagefind index
 * (search/pagefind/adapter.ts); the scores the browser ranks with are read from it by another
 * process once this one has ended and Pagefind's memory is given back (search-score-worker.ts). Its one argument is the pid of the
 * build that starts it.
 */
import { text } from 'node:stream/consumers'
import { openCache } from './cache.ts'
import { stopWhenOrphaned } from './orphaned.ts'
import type { ShardJob } from './search-shards.ts'
import { PAGE_FILTER, pageNumbers } from '../../search/build/scores.ts'
import { articlePath } from '../../model/article-address.ts'
import { type PagefindRecord, writePagefindIndex } from '../../search/pagefind/adapter.ts'

stopWhenOrphaned(Number(process.argv[2]))

const job = JSON.parse(await text(process.stdin)) as ShardJob
const cache = openCache(job.root, job.rendererVersion)
const numbers = pageNumbers(job.articles.map((a) => a.slug))

async function* records(): AsyncGenerator<PagefindRecord> {
  for (const a of job.articles) {
    const entry = await cache.get(a.hash)
    if (!entry) throw new Error(`${a.slug}.md: not in the build cache; run the build again`)
    yield {
      url: articlePath(a.slug),
      // The title is indexed from its metadata field (ranked by Pagefind's title weight), not as
      // text: an excerpt is cut from the text, and must never run the title into the description.
      // The description is text too (an excerpt may show it) and a ranked field of its own, so
      // that a match in it outranks one in the body alone (issue 39).
      content: `${a.description}\n\n${entry.text}`,
      language: 'en',
      meta: { title: a.title, description: a.description },
      filters: { author: [a.author], [PAGE_FILTER]: [String(numbers.get(a.slug))] },
    }
  }
}

await writePagefindIndex(records(), job.outputPath)
