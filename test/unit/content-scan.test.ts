import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  STAT_ASIDE_FILES,
  listContent,
  scanContent,
  statContent,
  statFiles,
  statInWorker,
} from '../../scripts/builder/source-stats.ts'

/** The build's one listing of the content folder (scripts/builder/source-stats.ts scanContent). */
describe('the content scan', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-content-scan-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  const content = join(tmp, 'content')
  mkdirSync(join(content, 'refs', 'styles'), { recursive: true })
  for (const name of ['b-second.md', 'a-first.md', 'about.md', 'notes.txt', 'library.bib'])
    writeFileSync(join(content, name), `${name}\n`.repeat(name.length))
  writeFileSync(join(content, 'refs', 'more.json'), '[]')
  writeFileSync(join(content, 'refs', 'styles', 'house.csl'), '<style/>')
  symlinkSync(join(content, 'a-first.md'), join(content, 'c-linked.md'))

  it('lists the articles (not about.md) and the reference files, with each article stat', () => {
    const before = Date.now()
    const scan = scanContent(content)
    expect(scan.names).toEqual(['a-first.md', 'b-second.md', 'c-linked.md'])
    expect(scan.references).toEqual(['library.bib', join('refs', 'more.json'), join('refs', 'styles', 'house.csl')])
    for (const name of scan.names) {
      const s = statSync(join(content, name))
      expect(scan.stats.get(name)).toEqual({ size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino })
    }
    // The scan's clock is read before its first stat (source-stats.ts, recordableSignature).
    expect(scan.scannedAt).toBeGreaterThanOrEqual(before)
    expect(scan.scannedAt).toBeLessThanOrEqual(Date.now())
  })

  it('stats many files in a thread of its own, as this thread would, and leaves out a file gone since the listing', async () => {
    const many = join(tmp, 'many')
    mkdirSync(many)
    for (let i = 0; i < STAT_ASIDE_FILES + 1; i++) writeFileSync(join(many, `a-${i}.md`), 'x'.repeat(i % 97))
    const listing = listContent(many)
    rmSync(join(many, 'a-7.md'))
    const aside = await statContent(many, listing)
    const here = scanContent(many)
    expect(aside.names).toContain('a-7.md')
    expect(aside.stats.has('a-7.md')).toBe(false)
    expect(aside.stats.size).toBe(STAT_ASIDE_FILES)
    expect(aside.stats).toEqual(here.stats)
    // Shared with this thread (a warm builder's build), a file gone in either half included.
    rmSync(join(many, 'a-1.md'))
    const shared = await statContent(many, listing, { shareHere: true })
    expect(shared.stats.has('a-7.md')).toBe(false)
    expect(shared.stats.has('a-1.md')).toBe(false)
    expect(shared.stats.size).toBe(STAT_ASIDE_FILES - 1)
    expect(shared.stats).toEqual(scanContent(many).stats)
    // The thread's stats are this thread's, gone file included.
    expect(await statInWorker(many, listing.names)).toEqual(statFiles(many, listing.names))
  })

  it('says a missing content folder', () => {
    expect(() => scanContent(join(tmp, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }))
  })
})
