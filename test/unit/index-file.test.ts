import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { INDEX_FILES } from '../../post-index/index-file.ts'
import { loadIndexFile, loadIndexFileSync, readIndexEntries } from '../../post-index/index-file-loader.ts'
import { indexSource, watchIndexFile } from '../../post-index/index-file-watcher.ts'
import { appendable, keptEntries, writeIndexFile, type KeptEntry } from '../../post-index/index-file-writer.ts'
import type { IndexEntry } from '../../model/article.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'https://research.example.org'
const entry = (slug: string, fields: Partial<IndexEntry> = {}): IndexEntry => ({
  slug,
  // Accented: a kept line's places are found by byte, not by character.
  title: `Título ${slug} — “naïve”`,
  description: 'D',
  date: '2025-01-01',
  lastModified: '2025-01-01T00:00:00.000Z',
  author: 'Zoë',
  tags: ['x'],
  readingMinutes: 3,
  markdown: `# ${slug}\n\nBody "quoted" \\ and é, math $\\frac{1}{2}$ and \u2028.\n`,
  ...fields,
})

const buildDir = () => tempDir('index')

/** A good index in a fresh folder, with one line of its entries file replaced by `edit`. */
async function editedIndex(
  edit: (line: Record<string, unknown>) => Record<string, unknown>,
  lineNo = 1,
): Promise<string> {
  const dir = buildDir()
  await writeIndexFile(dir, [entry('a-post'), entry('b-post')])
  const file = join(dir, INDEX_FILES.entries)
  const lines = readFileSync(file, 'utf8').split('\n')
  lines[lineNo] = JSON.stringify(edit(JSON.parse(lines[lineNo]!)))
  writeFileSync(file, lines.join('\n'))
  return dir
}

describe('the post index file', () => {
  it('gives back what was written, and loads into an index', async () => {
    const dir = buildDir()
    const entries = [entry('b-post', { date: '2025-02-01', image: '/images/b.png' }), entry('a-post', { markdown: '' })]
    await writeIndexFile(dir, entries)
    expect(readIndexEntries(dir)).toEqual(entries)
    const index = await loadIndexFile(dir, BASE)
    expect(index.size).toBe(2)
    const detail = JSON.parse(index.detail('b-post')!.body.toString())
    expect(detail).toMatchObject({
      slug: 'b-post',
      url: `${BASE}/posts/b-post`,
      image: `${BASE}/images/b.png`,
      markdown: entries[0]!.markdown,
    })
    expect(JSON.parse(index.detail('a-post')!.body.toString()).markdown).toBe('')
    expect(index.detail('missing')).toBeUndefined()
  })

  it('loads in slices that let other work run between them, into the same index as a load at once', async () => {
    const dir = buildDir()
    const entries = Array.from({ length: 600 }, (_, i) =>
      entry(`post-${String(i).padStart(3, '0')}`, { date: `2025-01-${String((i % 28) + 1).padStart(2, '0')}` }),
    )
    await writeIndexFile(dir, entries)
    // Counts the event loop's turns while the index loads.
    let turns = 0
    let loading = true
    const turn = () => {
      turns++
      if (loading) setImmediate(turn)
    }
    setImmediate(turn)
    // Every slice as short as can be: the event loop runs after each step.
    const sliced = await loadIndexFile(dir, BASE, { sliceMs: 0 }).finally(() => (loading = false))
    // 600 entries are about ten steps each of reading, checking and stat: the loop turned between them.
    expect(turns).toBeGreaterThan(20)
    const atOnce = loadIndexFileSync(dir, BASE)
    expect(sliced.size).toBe(600)
    expect(sliced.latest(20).body.equals(atOnce.latest(20).body)).toBe(true)
    expect(sliced.searchBody('title', 50).body.equals(atOnce.searchBody('title', 50).body)).toBe(true)
    for (const slug of ['post-000', 'post-317', 'post-599'])
      expect(sliced.detail(slug)!.body.equals(atOnce.detail(slug)!.body)).toBe(true)
  })

  it(
    'appends an edit to the previous bodies file, leaving every byte the previous index ' +
      'points to in place, until half the file is bodies no index points to',
    async () => {
      const first = buildDir()
      await writeIndexFile(first, [entry('a-post'), entry('b-post'), entry('c-post')])
      const bodies = (dir: string) => join(dir, INDEX_FILES.bodies)
      const firstSize = statSync(bodies(first)).size
      const before = readIndexEntries(first)
      const kept = keptEntries(first)!
      expect(appendable(bodies(first), kept)).toBe(true)

      const second = buildDir()
      const edited = entry('b-post', { markdown: 'An edited body.\n' })
      async function* items(): AsyncGenerator<IndexEntry | KeptEntry> {
        for (const { slug, date } of before) yield slug === 'b-post' ? edited : { kept: kept.get(slug)!, slug, date }
      }
      await writeIndexFile(second, items(), bodies(first), { append: true })
      // One file, grown by the edited body only; the kept lines point where they did.
      expect(statSync(bodies(second)).ino).toBe(statSync(bodies(first)).ino)
      const grown = statSync(bodies(second)).size - firstSize
      expect(grown).toBeGreaterThan(0)
      expect(grown).toBeLessThan(100)
      expect(keptEntries(second)!.get('a-post')).toEqual(kept.get('a-post'))
      // Both indexes load and read their own bodies from the shared file.
      expect(readIndexEntries(first)).toEqual(before)
      expect(readIndexEntries(second).map((e) => e.markdown)).toEqual(
        before.map((e) => (e.slug === 'b-post' ? 'An edited body.\n' : e.markdown)),
      )
      const index = await loadIndexFile(first, BASE)
      expect(JSON.parse(index.detail('b-post')!.body.toString()).markdown).toBe(entry('b-post').markdown)

      // A file more than twice the bodies its index points to is written anew.
      writeFileSync(bodies(second), Buffer.alloc(3 * firstSize, 0x20), { flag: 'a' })
      expect(appendable(bodies(second), keptEntries(second)!)).toBe(false)
    },
  )

  it('writes kept lines into a compact bodies file: the same entries, bodies moved, none left', async () => {
    const first = buildDir()
    await writeIndexFile(first, [entry('a-post'), entry('b-post'), entry('c-post')])
    const before = readIndexEntries(first)
    const kept = keptEntries(first)!
    const second = buildDir()
    const edited = entry('a-post', { markdown: 'A shorter body.\n' })
    async function* items(): AsyncGenerator<IndexEntry | KeptEntry> {
      for (const { slug, date } of before) yield slug === 'a-post' ? edited : { kept: kept.get(slug)!, slug, date }
    }
    await writeIndexFile(second, items(), join(first, INDEX_FILES.bodies))
    expect(statSync(join(second, INDEX_FILES.bodies)).ino).not.toBe(statSync(join(first, INDEX_FILES.bodies)).ino)
    expect(readIndexEntries(second)).toEqual(before.map((e) => (e.slug === 'a-post' ? edited : e)))
    // The kept lines moved with their bodies: the file holds what its index points to, nothing more.
    const again = keptEntries(second)!
    const used = [...again.values()].reduce((n, k) => n + k.body[1] + k.text[1], 0)
    expect(statSync(join(second, INDEX_FILES.bodies)).size).toBe(used)
    expect(again.get('b-post')!.bytes).not.toEqual(kept.get('b-post')!.bytes)
  })

  it('keeps nothing of an index with a line not laid out as it writes them', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry('a-post')])
    const file = join(dir, INDEX_FILES.entries)
    const [header, line] = readFileSync(file, 'utf8').split('\n')
    const moved = JSON.stringify({ body: [0, 2], ...JSON.parse(line!) })
    writeFileSync(file, `${header}\n${moved}\n`)
    expect(keptEntries(dir)).toBeUndefined()
  })

  it('writes an empty index that loads', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [])
    const index = await loadIndexFile(dir, BASE)
    expect(index.size).toBe(0)
    expect(JSON.parse(index.latest(10).body.toString())).toEqual({ posts: [] })
  })

  it('leaves no temporary file behind', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry('a-post')])
    expect(readdirSync(dir).sort()).toEqual(Object.values(INDEX_FILES).sort())
  })

  it.each([
    ['a bad slug', { slug: 'Bad Slug' }, /entry 0 \("Bad Slug"\): slug:/],
    ['a bad date', { date: '1 May' }, /entry 0 \("a-post"\): date: must be YYYY-MM-DD/],
    ['a bad lastModified', { lastModified: 'soon' }, /lastModified: must be an ISO 8601 date-time/],
    ['a tag that is not a string', { tags: [1] }, /tags\.0:/],
    ['a missing title', { title: undefined }, /title:/],
  ])('refuses to write %s, naming the entry and the field', async (_name, fields, message) => {
    await expect(writeIndexFile(buildDir(), [{ ...entry('a-post'), ...fields } as IndexEntry])).rejects.toThrow(message)
  })

  it('refuses to write a slug twice', async () => {
    await expect(writeIndexFile(buildDir(), [entry('a-post'), entry('a-post')])).rejects.toThrow(
      /entry 1: slug "a-post" appears twice/,
    )
  })

  it.each([
    ['a bad slug', (l: Record<string, unknown>) => ({ ...l, slug: 'Bad Slug' }), /entry 0 \("Bad Slug"\): slug:/],
    [
      'a bad date',
      (l: Record<string, unknown>) => ({ ...l, date: '1 May' }),
      /entry 0 \("a-post"\): date: must be YYYY-MM-DD/,
    ],
    [
      'a tag that is not a string',
      (l: Record<string, unknown>) => ({ ...l, tags: [1] }),
      /entry 0 \("a-post"\): tags\.0:/,
    ],
    ['a missing title', ({ title: _t, ...l }: Record<string, unknown>) => l, /entry 0 \("a-post"\): title:/],
    [
      'a body past the end',
      (l: Record<string, unknown>) => ({ ...l, body: [10_000, 5] }),
      /entry 0 \("a-post"\): body: ends past/,
    ],
  ])('refuses to load %s, naming the file, the entry and the field', async (_name, edit, message) => {
    const dir = await editedIndex(edit)
    const load = loadIndexFile(dir, BASE)
    await expect(load).rejects.toThrow(message)
    await expect(load).rejects.toThrow(join(dir, INDEX_FILES.entries))
  })

  it('refuses to load a slug twice', async () => {
    const dir = await editedIndex((l) => ({ ...l, slug: 'a-post' }), 2)
    await expect(loadIndexFile(dir, BASE)).rejects.toThrow(/entry 1: slug "a-post" appears twice/)
  })

  it('refuses bodies that do not belong to the entries', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry('a-post'), entry('b-post')])
    const bodies = join(dir, INDEX_FILES.bodies)
    writeFileSync(bodies, readFileSync(bodies).subarray(1))
    await expect(loadIndexFile(dir, BASE)).rejects.toThrow(/bytes where/)
    const shifted = await editedIndex((l) => ({ ...l, body: [(l.body as number[])[0]! + 1, (l.body as number[])[1]] }))
    await expect(loadIndexFile(shifted, BASE)).rejects.toThrow(/the body at 1 is not a JSON string/)
  })

  it('refuses a missing index, or one of another format, asking for a rebuild', async () => {
    const empty = buildDir()
    await expect(loadIndexFile(empty, BASE)).rejects.toThrow(join(empty, INDEX_FILES.entries))
    await expect(loadIndexFile(empty, BASE)).rejects.toThrow(/npm run build/)
    const other = await editedIndex((l) => ({ ...l, version: 1 }), 0)
    await expect(loadIndexFile(other, BASE)).rejects.toThrow(/not a lattice-post-index file of version 4; rebuild/)
  })

  it(
    'names the build it was read from through the link, and ' +
      'follows a later swap of the same index without reloading',
    async () => {
      const dist = buildDir()
      const swap = (id: string) => {
        symlinkSync(join('builds', id), join(dist, 'live.tmp'))
        renameSync(join(dist, 'live.tmp'), join(dist, 'live'))
      }
      const live = join(dist, 'live')
      mkdirSync(join(dist, 'builds', 'one'), { recursive: true })
      await writeIndexFile(join(dist, 'builds', 'one'), [entry('a-post')])
      swap('one')
      expect((await loadIndexFile(live, BASE)).build).toBe('one')

      const loads: number[] = []
      const labels: string[] = []
      const stop = watchIndexFile(live, BASE, {
        served: indexSource(live),
        onLoad: (index) => loads.push(index.size),
        onError: (e) => {
          throw e
        },
        onRelabel: (build) => labels.push(build),
        intervalMs: 20,
      })
      try {
        // The same files hard-linked into a later build (the build's search swap): relabelled, not reloaded.
        mkdirSync(join(dist, 'builds', 'two'))
        for (const name of Object.values(INDEX_FILES))
          linkSync(join(dist, 'builds', 'one', name), join(dist, 'builds', 'two', name))
        // A poll between the link and the swap sees a changed file (its link count) but the same build.
        await new Promise((r) => setTimeout(r, 60))
        expect(labels).toEqual([])
        swap('two')
        await waitUntil(() => labels.includes('two'))
        expect(loads).toEqual([])
        // A new index: reloaded, under its own build's name.
        mkdirSync(join(dist, 'builds', 'three'))
        await writeIndexFile(join(dist, 'builds', 'three'), [entry('a-post'), entry('b-post')])
        swap('three')
        await waitUntil(() => loads.length > 0)
        expect(loads).toEqual([2])
        expect(labels).toEqual(['two'])
      } finally {
        stop()
      }
    },
  )
})

async function waitUntil(done: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 10))
  }
}
