import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { linkTreeOffThread } from '../../scripts/builder/fs-thread.ts'

/** The build's file-system thread (scripts/builder/fs-thread.ts) links as linkTree does in place. */
describe('the file-system thread', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-fs-thread-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

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
