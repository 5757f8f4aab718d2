/**
 * An article's references live in the bodies file beside its markdown, read when its detail is
 * (the service's memory holds the few bytes of its citing articles only): these check the detail
 * they make, that a kept entry carries them to the next build, and that a bad span is refused.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IndexEntry } from '../../model/article.ts'
import { INDEX_FILES } from '../../post-index/index-file.ts'
import { loadIndexFileSync, readIndexEntries, readIndexState } from '../../post-index/index-file-loader.ts'
import { keptEntries, writeIndexFile } from '../../post-index/index-file-writer.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'https://research.example.org'
const REFERENCE = {
  id: 'knuth1984',
  type: 'article-journal',
  title: 'Literate Programming, a distinctive title',
  author: [{ family: 'Knuth', given: 'Donald E.' }],
  issued: { 'date-parts': [[1984]] },
  DOI: '10.1093/comjnl/27.2.97',
}
const entry = (slug: string, date: string, fields: Partial<IndexEntry> = {}): IndexEntry => ({
  slug,
  title: `Title ${slug}`,
  description: 'D',
  date,
  lastModified: `${date}T00:00:00.000Z`,
  author: 'A',
  tags: ['x'],
  readingMinutes: 1,
  markdown: `# ${slug}\n`,
  ...fields,
})
const ENTRIES = [
  entry('citing', '2025-01-03', { references: [REFERENCE], citedBy: [] }),
  entry('cited', '2025-01-02', { citedBy: [{ slug: 'citing', title: 'Title citing' }] }),
  entry('plain', '2025-01-01'),
]

async function written(entries = ENTRIES) {
  const dir = tempDir('index-references')
  await writeIndexFile(dir, entries)
  return dir
}

describe('references in the post index', () => {
  it('gives each detail its references and citing articles, as the in-memory index does', async () => {
    const dir = await written()
    const loaded = loadIndexFileSync(dir, BASE)
    const memory = createPostIndex(ENTRIES, BASE)
    for (const { slug } of ENTRIES) expect(loaded.detail(slug)!.body.equals(memory.detail(slug)!.body)).toBe(true)
    const detail = (slug: string) => JSON.parse(loaded.detail(slug)!.body.toString())
    expect(detail('citing')).toMatchObject({ references: [REFERENCE], citedBy: [] })
    expect(detail('cited')).toMatchObject({
      references: [],
      citedBy: [{ slug: 'citing', title: 'Title citing', url: `${BASE}/posts/citing` }],
    })
    expect(detail('plain')).toMatchObject({ references: [], citedBy: [] })
    expect(readIndexEntries(dir).find((e) => e.slug === 'citing')!.references).toEqual([REFERENCE])
  })

  it('keeps the references in the bodies file, not in memory', async () => {
    const state = readIndexState(await written(), BASE)
    for (const held of [state.posts, state.citedBy]) expect(held.includes('distinctive')).toBe(false)
    expect(readFileSync(join(await written(), INDEX_FILES.bodies), 'utf8')).toContain(JSON.stringify([REFERENCE]))
  })

  it('carries a kept entry’s references into the next build’s bodies file', async () => {
    const before = await written()
    const kept = keptEntries(before)!
    const next = tempDir('index-references-next')
    async function* entries() {
      for (const e of ENTRIES) yield { kept: kept.get(e.slug)!, slug: e.slug, date: e.date }
    }
    await writeIndexFile(next, entries(), join(before, INDEX_FILES.bodies))
    expect(readIndexEntries(next)).toEqual(readIndexEntries(before))
    expect(loadIndexFileSync(next, BASE).detail('citing')!.body.toString()).toContain('"references":[{"id":"knuth1984"')
  })

  it('refuses, at load, references that are not a JSON array', async () => {
    const dir = await written()
    const lines = readFileSync(join(dir, INDEX_FILES.entries), 'utf8').trim().split('\n')
    const [offset, length] = (JSON.parse(lines[1]!) as { refs: [number, number] }).refs
    const file = join(dir, INDEX_FILES.bodies)
    const bytes = readFileSync(file)
    bytes[offset + length - 1] = 0x20
    writeFileSync(file, bytes)
    expect(() => loadIndexFileSync(dir, BASE)).toThrow(/the references at \d+ are not a JSON array; rebuild/)
  })
})
