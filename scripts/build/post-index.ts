/**
 * Writes the post index, the one contract with the service, into a build folder. Streams one
 * entry at a time, so that the file is never one string in memory (ten thousand bodies are the
 * size of the corpus).
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import type { IndexEntry } from '../../model/article.ts'

export async function writeIndexFile(buildDir: string, entries: readonly IndexEntry[]): Promise<void> {
  const out = createWriteStream(join(buildDir, 'post-index.json'))
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain')
  }
  await write(`{"version":1,"generatedAt":${JSON.stringify(new Date().toISOString())},"posts":[`)
  for (let i = 0; i < entries.length; i++) await write((i ? ',' : '') + JSON.stringify(entries[i]))
  await write(']}')
  out.end()
  await once(out, 'finish')
}
