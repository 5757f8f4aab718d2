/**
 * llms-full.txt (llmstxt.org): the newest published articles' markdown twins in one file, newest
 * first, for readers that want the recent publication in one fetch. Capped at LLMS_FULL_ARTICLES:
 * the whole of a large site (a gigabyte at 50,000 articles) fits no reader's context and costs
 * every build its write; llms.txt lists every article with the address of its markdown twin.
 */
import { existsSync, linkSync, renameSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { copyRange } from '../../post-index/index-file-writer.ts'
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
const SEPARATOR_BYTES = Buffer.byteLength(SEPARATOR)

/** Bytes gathered before each write: few system calls, little memory. */
const BATCH = 1 << 20

/** One article in llms-full.txt: its twin, or its bytes [offset, length] in the previous file. */
export type FullPart = { slug: string; text: string } | { slug: string; kept: [number, number] }

/** Where each article (its separator and twin) is in the file: the next build copies an unchanged one. */
export type FullSpans = Record<string, [number, number]>

/**
 * Writes the file at `path` from the twins (the newest `count` of `of` published articles), a
 * batch at a time, so the articles are never held twice; into a new file renamed into place,
 * since `path` may be a link to a previous build's copy, which must not change. Kept articles
 * are copied from `previous`, consecutive ones at once.
 */
export async function writeLlmsFull(
  path: string,
  parts: AsyncIterable<FullPart>,
  count: number,
  of: number,
  previous?: string,
): Promise<FullSpans> {
  const temporary = `${path}.tmp`
  const out = await open(temporary, 'w')
  const from = previous === undefined ? undefined : await open(previous, 'r')
  const spans: FullSpans = {}
  try {
    const first = header(count, of)
    let batch: string[] = [first]
    let length = 0
    let offset = Buffer.byteLength(first)
    // The previous file's bytes still to copy, [start, end).
    let run: [number, number] | undefined
    const flush = async () => {
      if (batch.length) await out.write(batch.join(''))
      batch = []
      length = 0
      if (run) await copyRange(from!, out, run[0], run[1])
      run = undefined
    }
    for await (const part of parts) {
      if ('kept' in part) {
        if (!from) throw new Error(`${part.slug}: kept, with no previous ${LLMS_FULL}`)
        const [at, bytes] = part.kept
        if (run && run[1] === at) run[1] += bytes
        else {
          await flush()
          run = [at, at + bytes]
        }
        spans[part.slug] = [offset, bytes]
        offset += bytes
        continue
      }
      if (run) await flush()
      const bytes = SEPARATOR_BYTES + Buffer.byteLength(part.text)
      batch.push(SEPARATOR, part.text)
      spans[part.slug] = [offset, bytes]
      offset += bytes
      length += bytes
      if (length >= BATCH) await flush()
    }
    await flush()
  } catch (e) {
    await out.close()
    await from?.close()
    rmSync(temporary, { force: true })
    throw e
  }
  await out.close()
  await from?.close()
  renameSync(temporary, path)
  return spans
}

/** Uses the previous build's file when it holds the same articles: links it, unless it is already linked in. */
export function reuseLlmsFull(previous: string, path: string): boolean {
  if (!existsSync(previous)) return false
  if (!existsSync(path)) linkSync(previous, path)
  return true
}
