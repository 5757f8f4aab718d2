import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadIndexFile, readIndexEntries, writeIndexFile } from '../../auth-service/articles/index-file.ts'
import type { IndexEntry } from '../../model/article.ts'

const BASE = 'https://research.example.org'
const entry = (slug: string, fields: Partial<IndexEntry> = {}): IndexEntry => ({
  slug, title: `Title ${slug}`, description: 'D', date: '2025-01-01', lastModified: '2025-01-01T00:00:00.000Z',
  author: 'A', tags: ['x'], readingMinutes: 3, markdown: `# ${slug}\n\nBody "quoted" \\ and é.\n`, ...fields,
})

const dirs: string[] = []
function buildDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-index-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('the post index file', () => {
  it('gives back what was written, and loads into an index', async () => {
    const dir = buildDir()
    const entries = [entry('b-post', { date: '2025-02-01', image: '/images/b.png' }), entry('a-post')]
    await writeIndexFile(dir, entries)
    expect(readIndexEntries(dir)).toEqual(entries)
    const index = await loadIndexFile(dir, BASE)
    expect(index.size).toBe(2)
    const detail = JSON.parse(index.detail('b-post')!.body.toString())
    expect(detail).toMatchObject({ slug: 'b-post', url: `${BASE}/posts/b-post`, image: `${BASE}/images/b.png`, markdown: entries[0]!.markdown })
    expect(index.detail('missing')).toBeUndefined()
  })

  it('leaves no temporary file behind', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry('a-post')])
    expect(readdirSync(dir).filter((f) => f.includes('tmp'))).toEqual([])
  })

  it('refuses a missing file with a message naming it', async () => {
    const dir = buildDir()
    await expect(loadIndexFile(dir, BASE)).rejects.toThrow(dir)
  })

  it.each([
    ['a bad slug', { slug: 'Bad Slug' }, /entry 0 \("Bad Slug"\): slug:/],
    ['a bad date', { date: '1 May' }, /entry 0 \("a-post"\): date: must be YYYY-MM-DD/],
    ['a bad lastModified', { lastModified: 'soon' }, /lastModified: must be an ISO 8601 date-time/],
    ['a tag that is not a string', { tags: [1] }, /tags\.0:/],
    ['a missing title', { title: undefined }, /title:/],
  ])('refuses %s, naming the file, the entry and the field', async (_name, fields, message) => {
    const dir = buildDir()
    await writeIndexFile(dir, [{ ...entry('a-post'), ...fields } as IndexEntry])
    const load = loadIndexFile(dir, BASE)
    await expect(load).rejects.toThrow(message)
    await expect(load).rejects.toThrow(dir)
  })

  it('refuses a slug that appears twice', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry('a-post'), entry('a-post')])
    await expect(loadIndexFile(dir, BASE)).rejects.toThrow(/entry 1: slug "a-post" appears twice/)
  })

  it('refuses a file that is not a post index', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry('a-post')])
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), '{"something": "else"}')
    await expect(loadIndexFile(dir, BASE)).rejects.toThrow(/rebuild/)
  })
})
