import { mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { build, BuildError } from '../../scripts/build.ts'
import { listArticle, writeListCorpus } from '../support/list-corpus.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'http://localhost:4321'
/** Three pages of the home page, two of the "systems" tag. */
const ARTICLES = 60

/** Every file under `dir` by its path, with its bytes. */
function files(dir: string, rel = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name
    if (e.isDirectory()) for (const [k, v] of files(dir, path)) out.set(k, v)
    else out.set(path, readFileSync(join(dir, path), 'latin1'))
  }
  return out
}

describe('the list pages after an edit', () => {
  const tmp = tempDir('list-pages')
  const content = join(tmp, 'content')
  const env = (dist: string) => ({ ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: join(tmp, dist) })
  const lines: string[] = []
  const run = (dist = 'dist', options: Parameters<typeof build>[1] = {}) => {
    lines.length = 0
    return build(env(dist), { search: false, log: (l) => lines.push(l), ...options })
  }
  const site = (dist = 'dist') => join(tmp, dist, 'current', 'site')
  const inode = (path: string) => statSync(join(site(), path)).ino
  const builtLine = () => lines.find((l) => l.startsWith('site pages built'))
  /** The live site is, file for file, what a build from nothing makes of the same content. */
  let fresh = 0
  const expectAsFromNothing = async () => {
    const dist = `fresh-${fresh++}`
    await run(dist)
    const made = files(site(dist))
    const live = files(site())
    expect([...live.keys()].sort()).toEqual([...made.keys()].sort())
    for (const [path, bytes] of made) expect(live.get(path), path).toBe(bytes)
  }

  beforeAll(async () => {
    mkdirSync(content)
    writeListCorpus(content, ARTICLES)
    await run()
  }, 180_000)

  it('makes only the pages that show a retitled article, and links the others', async () => {
    // article-30 is the 31st newest: the home page's second page, no other of its pages.
    const kept = ['index.html', 'page/3.html'].map(inode)
    const second = inode('page/2.html')
    writeFileSync(join(content, 'article-30.md'), listArticle(30, { title: 'Thirty, retitled' }))
    await run()
    expect(builtLine()).toMatch(
      /^site pages built \(\d+ made, for 1 changed cards; the others linked; the article pages beside them\)/,
    )
    expect(['index.html', 'page/3.html'].map(inode)).toEqual(kept)
    expect(inode('page/2.html')).not.toBe(second)
    expect(readFileSync(join(site(), 'page/2.html'), 'utf8')).toContain('Thirty, retitled')
    for (const tag of listArticle(30)
      .match(/^tags: \[(.*)\]$/m)![1]!
      .split(', '))
      expect(readFileSync(join(site(), `tags/${tag}.html`), 'utf8') + tagPages(tag)).toContain('Thirty, retitled')
    expect(readFileSync(join(site(), 'llms.txt'), 'utf8')).toContain('[Thirty, retitled]')
    await expectAsFromNothing()
  }, 180_000)

  it('makes them when a body edit changes the reading time on the cards', async () => {
    const before = readFileSync(join(site(), 'page/2.html'), 'utf8')
    const long = `${listArticle(31)}\n${'Another sentence of the long body, added by the edit. '.repeat(120)}\n`
    writeFileSync(join(content, 'article-31.md'), long)
    await run()
    expect(builtLine()).toMatch(/for 1 changed cards/)
    expect(readFileSync(join(site(), 'page/2.html'), 'utf8')).not.toBe(before)
    await expectAsFromNothing()
  }, 180_000)

  it('makes them in the live preview too, after the edited page has landed', async () => {
    writeFileSync(join(content, 'article-32.md'), listArticle(32, { title: 'Thirty-two, previewed' }))
    await run('dist', { landEarly: true })
    expect(lines.findIndex((l) => l.startsWith('article pages live'))).toBeGreaterThanOrEqual(0)
    expect(builtLine()).toMatch(/for 1 changed cards/)
    expect(readFileSync(join(site(), 'page/2.html'), 'utf8')).toContain('Thirty-two, previewed')
    await expectAsFromNothing()
  }, 180_000)

  it('keeps the live build whole when a retitled article fails to render beside Astro', async () => {
    const live = readlinkSync(join(tmp, 'dist', 'current'))
    const builds = readdirSync(join(tmp, 'dist', 'builds')).sort()
    const page2 = readFileSync(join(site(), 'page/2.html'), 'utf8')
    writeFileSync(
      join(content, 'article-33.md'),
      `${listArticle(33, { title: 'Thirty-three, broken' })}\nAs shown by [@nokey].\n`,
    )
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(BuildError)
    expect((error as BuildError).message).toContain('@nokey')
    // Astro ran to its end while the article failed beside it.
    expect(builtLine()).toMatch(/the article pages beside them\) after/)
    expect(readlinkSync(join(tmp, 'dist', 'current'))).toBe(live)
    expect(readdirSync(join(tmp, 'dist', 'builds')).sort()).toEqual(builds)
    expect(readFileSync(join(site(), 'page/2.html'), 'utf8')).toBe(page2)
    writeFileSync(join(content, 'article-33.md'), listArticle(33))
  }, 180_000)

  it('builds every list page again when an edit moves an article between lists', async () => {
    writeFileSync(join(content, 'article-30.md'), listArticle(30, { title: 'Thirty, retitled', tags: ['privacy'] }))
    await run()
    expect(builtLine()).toMatch(/^site pages built after/)
    await expectAsFromNothing()
  }, 180_000)

  /** The text of a tag's later pages. */
  function tagPages(tag: string): string {
    const dir = join(site(), 'tags', tag, 'page')
    try {
      return readdirSync(dir)
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('')
    } catch {
      return ''
    }
  }
})
