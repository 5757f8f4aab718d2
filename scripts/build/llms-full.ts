/**
 * llms-full.txt (llmstxt.org): every published article's markdown twin in one file, newest first,
 * for readers that want the whole publication in one fetch.
 */
import { createWriteStream, existsSync, linkSync, renameSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { SITE } from '../../site/lib/site.ts'

export const LLMS_FULL = 'llms-full.txt'

const HEADER = `# ${SITE.name}: every article\n\n> ${SITE.tagline} Every published article in markdown, newest first; each is also at its Canonical address with ".md".\n`
const SEPARATOR = '\n---\n\n'

/**
 * Writes the file at `path` from the twins, one at a time as a stream, so the corpus is never
 * held twice; into a new file renamed into place, since `path` may be a link to a previous
 * build's copy, which must not change.
 */
export async function writeLlmsFull(path: string, twins: Iterable<string>): Promise<void> {
  const temporary = `${path}.tmp`
  const out = createWriteStream(temporary)
  try {
    out.write(HEADER)
    for (const twin of twins) {
      out.write(SEPARATOR)
      if (!out.write(twin)) await once(out, 'drain')
    }
    out.end()
    await finished(out)
  } catch (e) {
    out.destroy()
    rmSync(temporary, { force: true })
    throw e
  }
  renameSync(temporary, path)
}

/** Uses the previous build's file when it holds the same articles: links it, unless it is already linked in. */
export function reuseLlmsFull(previous: string, path: string): boolean {
  if (!existsSync(previous)) return false
  if (!existsSync(path)) linkSync(previous, path)
  return true
}
