/**
 * The line-delimited index and its flat search must answer exactly as the index they replaced
 * (one JSON document parsed whole, searched with MiniSearch): every detail, list and search
 * answer compared byte for byte, validators included, on the same entries.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { writeIndexFile } from '../../post-index/index-file-writer.ts'
import type { PostIndexCore } from '../../post-index/post-index.ts'
import { loadJsonIndex, writeJsonIndex } from '../../bench/references/json-post-index.ts'
import { prng } from '../../bench/prng.ts'
import type { IndexEntry } from '../../model/article.ts'
import { distOf, readIndexedPosts } from '../support/index.ts'

const BASE = 'https://research.example.org'
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function bothIndexes(entries: IndexEntry[]): Promise<{ current: PostIndexCore; reference: PostIndexCore }> {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-equivalence-'))
  dirs.push(dir)
  await writeIndexFile(dir, entries)
  await writeJsonIndex(dir, entries)
  return { current: loadIndexFileSync(dir, BASE), reference: loadJsonIndex(dir, BASE) }
}

/** 1,200 articles over a small Zipf vocabulary: common words in most articles, equal titles, equal dates. */
function syntheticEntries(): IndexEntry[] {
  const random = prng(11)
  const vocabulary = Array.from(
    { length: 300 },
    (_, i) => ['café', 'Naïve', 'entropy', 'hash', 'W-TinyLFU', 'k-means'][i] ?? `w${(i * 7919).toString(36)}`,
  )
  const word = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(1 / (random() + 0.004)) - 1)]!
  const words = (n: number) => Array.from({ length: n }, word).join(' ')
  return Array.from({ length: 1200 }, (_, i) => ({
    slug: `post-${i}`,
    title: i % 50 === 7 ? 'Same title, again' : words(2 + Math.floor(random() * 6)),
    description: `${words(5 + Math.floor(random() * 10))}.`,
    date: `202${Math.floor(random() * 5)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
    lastModified: new Date(Date.UTC(2025, 0, 1 + (i % 300))).toISOString(),
    author: 'Ada',
    tags: Array.from({ length: Math.floor(random() * 4) }, () => vocabulary[Math.floor(random() * 20)]!.toLowerCase()),
    ...(i % 3 === 0 ? { image: i % 2 ? `https://img.example/${i}.png` : `/images/${i}.png` } : {}),
    readingMinutes: 1 + (i % 9),
    markdown: `# ${words(3)}\n\n"${words(40)}" \\ $x^2$ \u2028 é 😀\n`,
  }))
}

function queriesFor(entries: readonly IndexEntry[]): string[] {
  const random = prng(5)
  const titleWords = entries.flatMap((e) => e.title.split(' '))
  const pick = () => titleWords[Math.floor(random() * titleWords.length)]!
  const queries = [
    '',
    'the of and',
    '!!! ???',
    'CAFE',
    'naive',
    'nai',
    'ca',
    'caf',
    'Same title',
    'same title, again again',
    'entropy hash café',
    // Misspelt words (one edit from 5 letters, two from 9) and compounds, by parts and whole.
    'entrpy',
    'hash entropu',
    'entrpy hash',
    'zzxqv',
    'tinylfu',
    'w-tinylfu',
    'wtinylfu',
    'kmeans',
    'k means',
  ]
  for (let i = 0; i < 100; i++) queries.push(Array.from({ length: 1 + Math.floor(random() * 4) }, pick).join(' '))
  for (const w of titleWords.slice(0, 40)) queries.push(w.slice(0, 3), `${pick()} ${w.slice(0, 4)}`)
  for (const e of entries.slice(0, 30)) queries.push(e.title, e.tags.join(' '), e.description)
  // Each long title word with a letter dropped, and with two dropped.
  for (const w of titleWords.slice(0, 60).filter((w) => w.length >= 6))
    queries.push(w.slice(1), `${pick()} ${w.slice(0, 2)}${w.slice(4)}`)
  return queries
}

function expectSameAnswers(current: PostIndexCore, reference: PostIndexCore, entries: readonly IndexEntry[]) {
  expect(current.size).toBe(reference.size)
  for (const e of entries) expect(current.detail(e.slug), e.slug).toEqual(reference.detail(e.slug))
  expect(current.detail('no-such-post')).toBeUndefined()
  for (const limit of [1, 2, 20, 50, 100, entries.length + 1])
    expect(current.latest(limit)).toEqual(reference.latest(limit))
  for (const q of queriesFor(entries))
    for (const limit of [1, 20, 100]) {
      const [mine, theirs] = [current.searchBody(q, limit), reference.searchBody(q, limit)]
      expect(mine.body.toString(), `${q} (${limit})`).toBe(theirs.body.toString())
      expect(mine.etag).toBe(theirs.etag)
      // An empty answer is dated by its index's creation, a moment apart here.
      if (!mine.body.toString().endsWith('"posts":[]}')) expect(mine.lastModified).toBe(theirs.lastModified)
    }
}

describe('the index answers as the one it replaced', () => {
  it('on 1,200 generated articles, common words and ties included', async () => {
    const entries = syntheticEntries()
    const { current, reference } = await bothIndexes(entries)
    expectSameAnswers(current, reference, entries)
  }, 180_000)

  it.each(['fixture', 'shipped'] as const)(
    'on the %s build',
    async (which) => {
      const entries = readIndexedPosts(distOf(which))
      const { current, reference } = await bothIndexes(entries)
      expectSameAnswers(current, reference, entries)
    },
    60_000,
  )
})
