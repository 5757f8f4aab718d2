/**
 * llms-full.txt (llmstxt.org): every published article's markdown twin in one file, newest first,
 * for readers that want the whole publication in one fetch.
 */
import { existsSync, linkSync, renameSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { SITE } from '../../site/lib/site.ts'

export const LLMS_FULL = 'llms-full.txt'

const HEADER =
  `# ${SITE.name}: every article\n\n> ${SITE.tagline} Every published article in markdown, newest first; ` +
  'each is also at its Canonical address with ".md".\n'
const SEPARATOR = '\n---\n\n'

/** Bytes gathered before each write: few system calls, little memory. */
const BATCH = 1 << 20

/**
 * Writes the file at `path` from the twins, a batch at a time, so the corpus is never held
 * twice; into a new file renamed into place, since `path` may be a link to a previous build's
 * copy, which must not change.
 */
export async function writeLlmsFull(path: string, twins: AsyncIterable<string>): Promise<void> {
  const temporary = `${path}.tmp`
  const out = await open(temporary, 'w')
  try {
    let batch: string[] = [HEADER]
    let length = HEADER.length
    for await (const twin of twins) {
      batch.push(SEPARATOR, twin)
      length += SEPARATOR.length + twin.length
      if (length >= BATCH) {
        await out.write(batch.join(''))
        batch = []
        length = 0
      }
    }
    await out.write(batch.join(''))
  } catch (e) {
    await out.close()
    rmSync(temporary, { force: true })
    throw e
  }
  await out.close()
  renameSync(temporary, path)
}

/** Uses the previous build's file when it holds the same articles: links it, unless it is already linked in. */
export function reuseLlmsFull(previous: string, path: string): boolean {
  if (!existsSync(previous)) return false
  if (!existsSync(path)) linkSync(previous, path)
  return true
}
