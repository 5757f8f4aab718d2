/**
 * llms-full.txt (llmstxt.org): the newest published articles' markdown twins in one file, newest
 * first, for readers that want the recent publication in one fetch. Capped at LLMS_FULL_ARTICLES:
 * the whole of a large site (a gigabyte at 50,000 articles) fits no reader's context and costs
 * every build its write; llms.txt lists every article with the address of its markdown twin.
 */
import { existsSync, linkSync, renameSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { SITE } from '../../site/lib/site.ts'

export const LLMS_FULL = 'llms-full.txt'

/** Articles in the file: the newest. */
export const LLMS_FULL_ARTICLES = 200

const header = (count: number, of: number) =>
  `# ${SITE.name}: ${count === of ? 'every article' : `the newest ${count} of ${of} articles`}\n\n` +
  `> ${SITE.tagline} ${count === of ? 'Every published article' : `The newest ${count} articles`} in markdown, ` +
  'newest first; each is also at its Canonical address with ".md"' +
  (count === of ? '.\n' : ', and /llms.txt lists every article with that address.\n')
const SEPARATOR = '\n---\n\n'

/** Bytes gathered before each write: few system calls, little memory. */
const BATCH = 1 << 20

/**
 * Writes the file at `path` from the twins (the newest `count` of `of` published articles), a
 * batch at a time, so the articles are never held twice; into a new file renamed into place,
 * since `path` may be a link to a previous build's copy, which must not change.
 */
export async function writeLlmsFull(
  path: string,
  twins: AsyncIterable<string>,
  count: number,
  of: number,
): Promise<void> {
  const temporary = `${path}.tmp`
  const out = await open(temporary, 'w')
  try {
    const first = header(count, of)
    let batch: string[] = [first]
    let length = first.length
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
