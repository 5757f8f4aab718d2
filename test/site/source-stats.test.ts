import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadIndexFileSync, readIndexEntries } from '../../post-index/index-file-loader.ts'
import { build, type Renderer } from '../../scripts/build.ts'
import { DEFAULT_RENDERER } from '../../scripts/builder/entries.ts'
import { RACY_MS } from '../../scripts/builder/source-stats.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { articleFile } from '../../model/article-bucket.ts'

const BASE = 'http://localhost:4321'
/** The files' mtime, in whole seconds: an edit can put it back exactly. */
const MTIME = Date.parse('2025-06-01T00:00:00Z') / 1000

/** The stat rule of scripts/builder/source-stats.ts, through whole builds (no search index: it is not in question). */
describe('change detection by stat', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-source-stats-'))
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const lines: string[] = []
  const run = async () => {
    lines.length = 0
    await build(env, { log: (l) => lines.push(l), search: false })
    const read = /^read (\d+) of (\d+) files/.exec(lines.find((l) => l.startsWith('read ')) ?? '')
    const rendered = /^validated, (\d+) to render/.exec(lines.find((l) => l.startsWith('validated')) ?? '')
    return { read: Number(read?.[1]), of: Number(read?.[2]), rendered: Number(rendered?.[1]) }
  }
  const file = (slug: string) => join(content, `${slug}.md`)
  const page = (slug: string) => articleFile(join(dist, 'current'), slug, 'page')

  beforeAll(async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    for (const name of readdirSync(content)) utimesSync(join(content, name), MTIME, MTIME)
    // Files changed within RACY_MS of a build's scan are not trusted by stat: let the copies age.
    await sleep(RACY_MS + 200)
    await run()
  }, 180_000)
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('reads no file whose stat is unchanged', async () => {
    const { read, of } = await run()
    expect(of).toBe(readdirSync(FIXTURE_CORPUS).length)
    expect(read).toBe(0)
  }, 120_000)

  it('reads a touched file again, and neither renders nor rewrites its page', async () => {
    const inode = statSync(page('hashing-rings')).ino
    const later = Date.now() / 1000 + 5
    utimesSync(file('hashing-rings'), later, later)
    expect(await run()).toMatchObject({ read: 1, rendered: 0 })
    expect(statSync(page('hashing-rings')).ino).toBe(inode)
  }, 120_000)

  it('notices an edit that keeps the size and puts the mtime back, by its ctime', async () => {
    const before = statSync(file('cafe-latency-notes'))
    const text = readFileSync(file('cafe-latency-notes'), 'utf8')
    writeFileSync(file('cafe-latency-notes'), text.replace('## Queues', '## QUEUES'))
    utimesSync(file('cafe-latency-notes'), MTIME, MTIME)
    const after = statSync(file('cafe-latency-notes'))
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino])
    // Also read: the file touched by the test before, whose change was too recent to record.
    expect(await run()).toMatchObject({ read: 2, rendered: 1 })
    expect(readFileSync(page('cafe-latency-notes'), 'utf8')).toContain('QUEUES')
    const entry = readIndexEntries(join(dist, 'current')).find((e) => e.slug === 'cafe-latency-notes')
    expect(entry!.markdown).toContain('## QUEUES')
    expect(readFileSync(join(dist, 'current', 'site', 'llms-full.txt'), 'utf8')).toContain('## QUEUES')
  }, 120_000)

  it('keeps the post index and llms-full.txt of unchanged articles byte for byte', async () => {
    const before = readIndexEntries(join(dist, 'current'))
    const full = readFileSync(join(dist, 'current', 'site', 'llms-full.txt'), 'utf8')
    writeFileSync(file('cafe-latency-notes'), readFileSync(file('cafe-latency-notes'), 'utf8').replace('QUEUES', 'Q'))
    await run()
    const after = readIndexEntries(join(dist, 'current'))
    expect(after.filter((e) => e.slug !== 'cafe-latency-notes')).toEqual(
      before.filter((e) => e.slug !== 'cafe-latency-notes'),
    )
    const fullAfter = readFileSync(join(dist, 'current', 'site', 'llms-full.txt'), 'utf8')
    expect(fullAfter.replace('## Q\n', '## QUEUES\n')).toBe(full)
    // The copied bodies keep their escaped text (the MCP tools' text content) beside them.
    const index = loadIndexFileSync(join(dist, 'current'), BASE)
    for (const { slug, markdown } of after) {
      const parts = index.article(slug)!
      expect(JSON.parse(parts.markdown.toString()), slug).toBe(markdown)
      expect(JSON.parse(`"${parts.markdownText.toString()}"`), slug).toBe(JSON.stringify(markdown))
    }
  }, 120_000)
  it('records the stat of files changed just before the scan once the build has read them again, settled', async () => {
    // A corpus copied just now: every file, and every bibliography, racy at the build's scan.
    const fresh = join(tmp, 'fresh')
    cpSync(FIXTURE_CORPUS, fresh, { recursive: true })
    const freshEnv = { ...env, CONTENT_DIR: fresh, DIST_DIR: join(tmp, 'fresh-dist') }
    // The first render waits out the racy window: the post index's reads come after it.
    let waited = false
    const late =
      (render: NonNullable<Renderer['renderInThread']>): NonNullable<Renderer['renderInThread']> =>
      async (markdown, references) => {
        if (!waited) await sleep(RACY_MS + 200)
        waited = true
        return render(markdown, references)
      }
    const renderer: Renderer = {
      version: DEFAULT_RENDERER.version,
      renderInThread: late(DEFAULT_RENDERER.renderInThread!),
      createPool: (threads, heap) => {
        const pool = DEFAULT_RENDERER.createPool(threads, heap)
        return { render: late(pool.render), close: () => pool.close() }
      },
    }
    const logged: string[] = []
    await build(freshEnv, { log: (l) => logged.push(l), search: false, renderer })
    const articles = readdirSync(fresh).filter((f) => f.endsWith('.md') && f !== 'about.md').length
    expect(logged).toContain(`recorded the stat of ${articles} files changed just before the scan, read again since`)
    logged.length = 0
    await build(freshEnv, { log: (l) => logged.push(l), search: false })
    expect(logged.find((l) => l.startsWith('read '))).toMatch(/^read 0 of /)
  }, 180_000)
})
