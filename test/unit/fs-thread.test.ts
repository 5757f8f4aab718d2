import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { linkTreeOffThread, packScan, scanContentOffThread, unpackScan } from '../../scripts/builder/fs-thread.ts'
import { listArticleFiles, listReferenceFiles, scanContent } from '../../scripts/builder/source-stats.ts'

/** The build's file-system thread (scripts/builder/fs-thread.ts) answers as the same work done in place. */
describe('the file-system thread', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-fs-thread-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  const content = join(tmp, 'content')
  mkdirSync(join(content, 'refs', 'styles'), { recursive: true })
  for (const name of ['b-second.md', 'a-first.md', 'about.md', 'notes.txt', 'library.bib'])
    writeFileSync(join(content, name), `${name}\n`.repeat(name.length))
  writeFileSync(join(content, 'refs', 'more.json'), '[]')
  writeFileSync(join(content, 'refs', 'styles', 'house.csl'), '<style/>')
  symlinkSync(join(content, 'a-first.md'), join(content, 'c-linked.md'))

  it('scans a content folder as scanContent does: the same names, stats to the bit, and reference files', async () => {
    const here = scanContent(content)
    const there = await scanContentOffThread(content)
    expect(there.names).toEqual(['a-first.md', 'b-second.md', 'c-linked.md'])
    expect(there.names).toEqual(listArticleFiles(content))
    expect(there.references).toEqual(listReferenceFiles(content))
    expect(there.references).toEqual(['library.bib', join('refs', 'more.json'), join('refs', 'styles', 'house.csl')])
    expect(there.stats).toEqual(here.stats)
    for (const name of there.names) {
      const s = statSync(join(content, name))
      expect(there.stats.get(name)).toEqual({ size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino })
    }
    // The scan's clock is read before its first stat, so no stat it took is newer than it.
    expect(there.scannedAt).toBeLessThanOrEqual(Date.now())
  })

  it('keeps a file that vanished between the listing and its stat out of the stats', () => {
    const scan = scanContent(content)
    scan.stats.delete('b-second.md')
    const back = unpackScan(packScan(scan))
    expect(back.names).toEqual(scan.names)
    expect(back.stats.has('b-second.md')).toBe(false)
    expect(back.stats).toEqual(scan.stats)
  })

  it('says a missing content folder as the scan in place does', async () => {
    await expect(scanContentOffThread(join(tmp, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('links a tree: files hard-linked, symlinks made again, skipped entries left out', async () => {
    const from = join(tmp, 'site')
    mkdirSync(join(from, 'tags', 'deep'), { recursive: true })
    mkdirSync(join(from, 'pagefind'))
    writeFileSync(join(from, 'index.html'), 'home')
    writeFileSync(join(from, 'llms-full.txt'), 'all')
    writeFileSync(join(from, 'tags', 'deep', 'page.html'), 'tag')
    writeFileSync(join(from, 'pagefind', 'shards.json'), '{}')
    symlinkSync('../shared/one', join(from, 'tags', 'shared'))
    const to = join(tmp, 'new', 'site')
    mkdirSync(to, { recursive: true })
    await linkTreeOffThread(from, to, new Set(['pagefind', 'llms-full.txt']))
    expect(statSync(join(to, 'index.html')).ino).toBe(statSync(join(from, 'index.html')).ino)
    expect(statSync(join(to, 'tags', 'deep', 'page.html')).ino).toBe(
      statSync(join(from, 'tags', 'deep', 'page.html')).ino,
    )
    expect(lstatSync(join(to, 'tags', 'shared')).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(to, 'tags', 'shared'))).toBe('../shared/one')
    expect(() => statSync(join(to, 'pagefind'))).toThrow()
    expect(() => statSync(join(to, 'llms-full.txt'))).toThrow()
  })

  it('fails on a link that cannot be made, naming the file', async () => {
    const from = join(tmp, 'twice')
    mkdirSync(from)
    writeFileSync(join(from, 'page.html'), 'x')
    const to = join(tmp, 'twice-to')
    mkdirSync(to)
    writeFileSync(join(to, 'page.html'), 'already here')
    await expect(linkTreeOffThread(from, to, new Set())).rejects.toThrow(/EEXIST.*page\.html/)
  })
})
