/**
 * The warm builder's watch of the content folder (scripts/builder-service/content-watch.ts),
 * on real files and the real inotify: what it stats again, and when it does not vouch for a stat.
 */
import {
  appendFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ContentWatch, MAX_EVENTS } from '../../scripts/builder-service/content-watch.ts'
import { listContent, scanContent, type ContentScan } from '../../scripts/builder/source-stats.ts'
import { tempDir } from '../support/temp.ts'

const ARTICLES = 40

describe('the content watch', () => {
  let watch: ContentWatch | undefined
  afterEach(() => watch?.close())

  /** A content folder of ARTICLES files, a home for the barriers, and a watch of them. */
  const setUp = () => {
    const tmp = tempDir('content-watch')
    const content = join(tmp, 'content')
    const home = join(tmp, 'home')
    mkdirSync(content)
    mkdirSync(home)
    for (let i = 0; i < ARTICLES; i++) writeFileSync(join(content, `article-${i}.md`), `# Article ${i}\n`)
    watch = ContentWatch.start(content, home)
    expect(watch).toBeDefined()
    const scan = () => watch!.scan(content, listContent(content))
    return { content, home, scan }
  }

  /** The same stats as a stat of every file now. */
  const expectCurrent = (content: string, scan: ContentScan | undefined) => {
    expect(scan).toBeDefined()
    const now = scanContent(content)
    expect(scan!.names).toEqual(now.names)
    expect(Object.fromEntries(scan!.stats)).toEqual(Object.fromEntries(now.stats))
  }

  it('stats nothing again while nothing changed, and each changed, new or removed file', async () => {
    const { content, scan } = setUp()
    const quiet = await scan()
    expect(quiet?.restated).toBe(0)
    expectCurrent(content, quiet)

    appendFileSync(join(content, 'article-3.md'), 'A sentence.\n')
    writeFileSync(join(content, 'article-new.md'), '# New\n')
    unlinkSync(join(content, 'article-7.md'))
    const edited = await scan()
    expect(edited?.restated).toBe(2)
    expectCurrent(content, edited)

    // A file replaced by a rename, as editors save.
    writeFileSync(join(content, '.article-5.md.tmp'), '# Five, saved again\n')
    renameSync(join(content, '.article-5.md.tmp'), join(content, 'article-5.md'))
    expectCurrent(content, await scan())
  })

  it('judges every stat as of the idle stat, so a file changed since is not recorded as unchanged', async () => {
    const { content, scan } = setUp()
    const before = Date.now()
    await new Promise((r) => setTimeout(r, 20))
    const listing = listContent(content)
    const got = await watch!.scan(content, listing)
    expect(got!.scannedAt).toBeLessThanOrEqual(before)
    expect(got!.scannedAt).toBeLessThan(listing.scannedAt)
    expect((await scan())?.restated).toBe(0)
  })

  it('sees an edit made just before the build asks, twenty times over', async () => {
    const { content, scan } = setUp()
    for (let i = 0; i < 20; i++) {
      // Written and asked in one turn: its event is not delivered yet when the scan starts.
      writeFileSync(join(content, `article-${i}.md`), `# Article ${i}, edit ${i}\n${'x'.repeat(i)}`)
      expectCurrent(content, await scan())
    }
  })

  it('answers twenty scans at once alike', async () => {
    const { content, scan } = setUp()
    appendFileSync(join(content, 'article-1.md'), 'More.\n')
    const scans = await Promise.all(Array.from({ length: 20 }, scan))
    for (const s of scans) {
      expect(s?.restated).toBe(1)
      expectCurrent(content, s)
    }
  })

  it('stats a symbolic link and a file with other hard links every time', async () => {
    const { content, home } = setUp()
    const outside = join(home, '..', 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'linked.md'), '# Linked\n')
    symlinkSync(join(outside, 'linked.md'), join(content, 'via-symlink.md'))
    linkSync(join(content, 'article-0.md'), join(outside, 'hard.md'))
    watch!.refresh()
    // Changed where this folder's watch sees nothing.
    appendFileSync(join(outside, 'linked.md'), 'Changed.\n')
    appendFileSync(join(outside, 'hard.md'), 'Changed.\n')
    const s = await watch!.scan(content, listContent(content))
    expect(s?.restated).toBe(2)
    expectCurrent(content, s)
  })

  it('does not vouch for another folder, one put in its place, or past its event limit', async () => {
    const { content, home, scan } = setUp()
    const other = join(home, '..', 'other')
    mkdirSync(other)
    expect(await watch!.scan(other, listContent(other))).toBeUndefined()

    // More events than the limit: the kernel's queue may have dropped some.
    for (let i = 0; i <= MAX_EVENTS; i++) writeFileSync(join(content, `article-${i % ARTICLES}.md`), `# ${i}\n`)
    expect(await scan()).toBeUndefined()
    // Stat'ed again while idle, it vouches again.
    expect(watch!.stale).toBe(true)
    watch!.refresh()
    expectCurrent(content, await scan())

    // The folder moved away and another put at its path.
    renameSync(content, join(home, '..', 'moved'))
    mkdirSync(content)
    writeFileSync(join(content, 'article-0.md'), '# Another folder\n')
    expect(await scan()).toBeUndefined()
    // The watch starts again on the folder now there.
    watch!.refresh()
    expectCurrent(content, await scan())
    expect(readdirSync(home)).toEqual([])
  })

  it('does not vouch when the barrier cannot be written', async () => {
    const { home, scan } = setUp()
    rmSync(home, { recursive: true })
    expect(await scan()).toBeUndefined()
  })
})
