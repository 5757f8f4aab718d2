import {
  closeSync,
  cpSync,
  existsSync,
  openSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_DIR, articleBucket, articleFile, type ArticleFileForm } from '../../model/article-bucket.ts'
import { detailFile } from '../../post-index/edge-files.ts'
import { loadIndexFileSync, readIndexEntries } from '../../post-index/index-file-loader.ts'
import { build, BuildError, type Renderer } from '../../scripts/build.ts'
import { configKey } from '../../model/build-dir.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { siteFile } from '../support/site-file.ts'

const BASE = 'http://localhost:4321'

/** A renderer of another configuration: its own version, a recognisable output. */
const otherRenderer: Renderer = {
  version: 'test-renderer-1',
  createPool: () => ({
    render: async (markdown) => ({
      html: `<p class="other-renderer">${markdown.length} characters</p>`,
      headings: [],
      text: 'other renderer',
    }),
    close: async () => {},
  }),
}

it("keys the cache by the renderer's own version", async () => {
  const { RENDERER_VERSION } = await import('../../scripts/builder/renderer.ts')
  expect(RENDERER_VERSION).toBe((await import('../../scripts/builder/render/index.ts')).RENDERER_VERSION)
})

describe('an incremental build', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-incremental-'))
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const lines: string[] = []
  const run = (options: Parameters<typeof build>[1] = {}, e: NodeJS.ProcessEnv = env) => {
    lines.length = 0
    return build(e, { log: (l) => lines.push(l), ...options })
  }
  /** A file of the live site by its address from the root: an article's from its bucket. */
  const live = (path: string, base = BASE) =>
    readFileSync(siteFile(join(dist, 'sites', configKey(base, content)), path), 'utf8')
  const current = (slug: string, form: ArticleFileForm) => articleFile(join(dist, 'current'), slug, form)
  const liveIndex = () => readIndexEntries(join(dist, 'current'))
  const edit = (slug: string, from: string, to: string) => {
    const file = join(content, `${slug}.md`)
    writeFileSync(file, readFileSync(file, 'utf8').replace(from, to))
  }

  beforeAll(async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    await run()
  }, 180_000)
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('serves an edited body without running Astro, and reuses the unchanged pages by hard link', async () => {
    const before = current('hashing-rings', 'page')
    const inode = statSync(before).ino
    const fullBefore = join(dist, 'current', 'site', 'llms-full.txt')
    const fullText = readFileSync(fullBefore, 'utf8')
    const fullFd = openSync(fullBefore, 'r')
    const twins = (['bib', 'csl.json', 'ris'] as const).map((form) => current('hashing-rings', form))
    const twinInodes = twins.map((f) => statSync(f).ino)
    edit('cafe-latency-notes', '## Queues', '## Queues and espresso')
    await run()
    // llms-full.txt follows the edit, in a new file: the previous build's copy is left as it was.
    expect(live('llms-full.txt')).toContain('## Queues and espresso')
    expect(readFileSync(fullFd, 'utf8')).toBe(fullText)
    closeSync(fullFd)
    expect(lines.some((l) => l.startsWith('site pages built'))).toBe(false)
    expect(live('posts/cafe-latency-notes.html')).toContain('Queues and espresso')
    expect(live('posts/cafe-latency-notes.md')).toContain('## Queues and espresso')
    expect(liveIndex().find((p) => p.slug === 'cafe-latency-notes')!.markdown).toContain('## Queues and espresso')
    expect(statSync(current('hashing-rings', 'page')).ino).toBe(inode)
    expect(twins.map((f) => statSync(f).ino)).toEqual(twinInodes)
    expect(live('posts/cafe-latency-notes.bib')).toContain('title = {{Café Latency Notes}}')
    // The search index follows the text.
    expect(lines.some((l) => l.startsWith('search index live'))).toBe(true)
  }, 120_000)

  it('keeps an unchanged article’s edge file, and gives an edited one a later mtime, so a new ETag', async () => {
    const edge = (slug: string) => detailFile(join(dist, 'current'), slug)
    const kept = statSync(edge('hashing-rings'))
    // The live file's mtime pushed ahead: the edit lands within "the same second" as far as
    // whole seconds go, and its file must still move past it.
    const ahead = Math.floor(Date.now() / 1000) + 100
    utimesSync(edge('cafe-latency-notes'), ahead, ahead)
    edit('cafe-latency-notes', '## Queues and espresso', '## Queues and espressO') // the same size
    await run()
    expect(statSync(edge('hashing-rings')).ino).toBe(kept.ino)
    expect(statSync(edge('hashing-rings')).mtimeMs).toBe(kept.mtimeMs)
    const edited = statSync(edge('cafe-latency-notes'))
    expect(Math.floor(edited.mtimeMs / 1000)).toBe(ahead + 1)
    const answer = loadIndexFileSync(join(dist, 'current'), BASE).detail('cafe-latency-notes')!
    expect(readFileSync(edge('cafe-latency-notes')).equals(answer.body)).toBe(true)
    expect(answer.etag).toBe(`"${(ahead + 1).toString(16)}-${edited.size.toString(16)}"`)
    expect(answer.body.toString()).toContain('## Queues and espressO')
  }, 120_000)

  it('makes a new bucket folder for an edited article only, and leaves the previous build whole', async () => {
    const links = (build: string) =>
      new Map(readdirSync(join(build, EDGE_DIR)).map((b) => [b, readlinkSync(join(build, EDGE_DIR, b))]))
    const before = realpathSync(join(dist, 'current'))
    const twinBefore = readFileSync(articleFile(before, 'cafe-latency-notes', 'md'), 'utf8')
    edit('cafe-latency-notes', '## Queues and espressO', '## Queues and espresso, again')
    await run({ search: false })
    const after = realpathSync(join(dist, 'current'))
    expect(after).not.toBe(before)
    const edited = articleBucket('cafe-latency-notes')
    const [old, now] = [links(before), links(after)]
    expect([...now.keys()].sort()).toEqual([...old.keys()].sort())
    for (const [bucket, target] of now)
      if (bucket === edited) expect(target, bucket).not.toBe(old.get(bucket))
      else expect(target, bucket).toBe(old.get(bucket))
    expect(lines.some((l) => /^pages written \(1 article buckets new, \d+ shared\)/.test(l))).toBe(true)
    // The previous build, which in-flight requests may still read, is whole and as it was.
    expect(existsSync(before)).toBe(true)
    expect(readFileSync(articleFile(before, 'cafe-latency-notes', 'md'), 'utf8')).toBe(twinBefore)
    expect(readFileSync(articleFile(after, 'cafe-latency-notes', 'md'), 'utf8')).toContain('espresso, again')
    for (const build of [before, after])
      for (const p of readIndexEntries(build))
        for (const form of ['page', 'md', 'bib', 'csl.json', 'ris', 'link', 'json'] as const)
          expect(existsSync(articleFile(build, p.slug, form)), `${build} ${p.slug} ${form}`).toBe(true)
    // Every bucket folder is linked by a build: the others were removed.
    const store = join(dist, 'articles', configKey(BASE, content))
    const linked = new Set(
      readdirSync(join(dist, 'builds')).flatMap((id) => [...links(join(dist, 'builds', id)).values()]),
    )
    expect(readdirSync(store).sort()).toEqual([...linked].map((t) => t.split('/').pop()!).sort())
  }, 120_000)

  it('lands a title edit with its list pages, then its search index; the preview lands its page first', async () => {
    const inOrder = (...phases: string[]) => {
      const order = phases.map((p) => lines.findIndex((l) => l.startsWith(p)))
      expect(order.every((i) => i >= 0)).toBe(true)
      expect([...order].sort((a, b) => a - b)).toEqual(order)
    }
    edit('hashing-rings', 'title: "Hashing Rings"', 'title: "Hashing Rings Draft"')
    await run({ search: false, landEarly: true })
    inOrder('article pages live', 'site pages built', 'site live')
    edit('hashing-rings', 'title: "Hashing Rings Draft"', 'title: "Hashing Rings Revisited"')
    await run()
    inOrder('site pages built', 'site live', 'search index written', 'search index live')
    expect(lines.some((l) => l.startsWith('article pages live'))).toBe(false)
    expect(live('posts/hashing-rings.html')).toContain(
      '<h1 class="page-title" data-pagefind-meta="title">Hashing Rings Revisited</h1>',
    )
    expect(live('index.html')).toContain('Hashing Rings Revisited')
    expect(live('rss.xml')).toContain('<title>Hashing Rings Revisited</title>')
    expect(live('atom.xml')).toContain('<title>Hashing Rings Revisited</title>')
    expect(live('posts/hashing-rings.bib')).toContain('title = {{Hashing Rings Revisited}}')
    expect(JSON.parse(live('posts/hashing-rings.csl.json'))[0].title).toBe('Hashing Rings Revisited')
    expect(live('posts/hashing-rings.ris')).toContain('\r\nTI  - Hashing Rings Revisited\r\n')
    expect(live('posts/hashing-rings.html')).toContain('<meta name="citation_title" content="Hashing Rings Revisited">')
    expect(live('llms.txt')).toContain('[Hashing Rings Revisited]')
  }, 180_000)

  it('follows a renamed article everywhere, and drops the old address', async () => {
    renameSync(join(content, 'search-evaluation.md'), join(content, 'evaluating-search.md'))
    await run()
    expect(existsSync(current('search-evaluation', 'page'))).toBe(false)
    expect(existsSync(current('search-evaluation', 'md'))).toBe(false)
    expect(existsSync(current('search-evaluation', 'bib'))).toBe(false)
    expect(existsSync(current('search-evaluation', 'csl.json'))).toBe(false)
    expect(existsSync(current('search-evaluation', 'ris'))).toBe(false)
    expect(live('posts/evaluating-search.bib')).toMatch(/^@article\{evaluating-search,\n/)
    expect(live('posts/evaluating-search.html')).toContain(
      '<link rel="canonical" href="http://localhost:4321/posts/evaluating-search">',
    )
    expect(live('posts/evaluating-search.md')).toContain('- Canonical: http://localhost:4321/posts/evaluating-search')
    expect(live('sitemap-0.xml')).toContain('/posts/evaluating-search</loc>')
    expect(live('sitemap-0.xml')).not.toContain('/posts/search-evaluation</loc>')
    expect(live('llms.txt')).not.toContain('search-evaluation')
    expect(
      liveIndex()
        .map((p) => p.slug)
        .sort(),
    ).toEqual(['cafe-latency-notes', 'evaluating-search', 'hashing-rings'])
  }, 180_000)

  it('removes a deleted article from its page, the lists, the feed and the index', async () => {
    unlinkSync(join(content, 'evaluating-search.md'))
    await run()
    expect(existsSync(current('evaluating-search', 'page'))).toBe(false)
    for (const page of ['index.html', 'rss.xml', 'atom.xml', 'llms.txt', 'llms-full.txt', 'sitemap-0.xml', 'tags.html'])
      expect(live(page), page).not.toContain('evaluating-search')
    expect(
      liveIndex()
        .map((p) => p.slug)
        .sort(),
    ).toEqual(['cafe-latency-notes', 'hashing-rings'])
    expect(existsSync(detailFile(join(dist, 'current'), 'evaluating-search'))).toBe(false)
  }, 180_000)

  it('renders again when the markdown configuration changes, and back', async () => {
    await run({ renderer: otherRenderer })
    expect(live('posts/hashing-rings.html')).toContain('<p class="other-renderer">')
    await run()
    expect(live('posts/hashing-rings.html')).not.toContain('other-renderer')
    expect(live('posts/hashing-rings.html')).toContain('Each server owns arcs of a ring.')
  }, 180_000)

  it('names another depositor in every Crossref deposit, unchanged articles too, and back', async () => {
    await run({}, { ...env, CROSSREF_DEPOSITOR_NAME: 'Deposits Desk' })
    expect(live('posts/hashing-rings.crossref.xml')).toContain('<depositor_name>Deposits Desk</depositor_name>')
    await run()
    expect(live('posts/hashing-rings.crossref.xml')).toContain('<depositor_name>Lattice Research</depositor_name>')
    await expect(run({}, { ...env, CROSSREF_DEPOSITOR_EMAIL: 'nobody' })).rejects.toThrow(/CROSSREF_DEPOSITOR_EMAIL/)
  }, 180_000)

  it('builds another BASE_URL beside the first, each with its own absolute links', async () => {
    const other = 'https://research.example.org'
    await run({}, { ...env, BASE_URL: other })
    expect(live('posts/hashing-rings.html', other)).toContain(
      '<link rel="canonical" href="https://research.example.org/posts/hashing-rings">',
    )
    expect(live('llms.txt', other)).toContain('(https://research.example.org/posts/hashing-rings.md)')
    expect(live('posts/hashing-rings.md', other)).toContain(
      '- Canonical: https://research.example.org/posts/hashing-rings',
    )
    // The first configuration's build is untouched.
    expect(live('posts/hashing-rings.html')).toContain(
      '<link rel="canonical" href="http://localhost:4321/posts/hashing-rings">',
    )
    expect(readlinkSync(join(dist, 'current'))).toBe(
      readlinkSync(join(dist, 'sites', configKey(other, content))).replace(/^\.\.\//, ''),
    )
  }, 180_000)

  it('rejects bad files with every problem, and keeps the live build', async () => {
    const liveBefore = readlinkSync(join(dist, 'sites', configKey(BASE, content)))
    writeFileSync(
      join(content, 'two-faults.md'),
      '---\ntitle: ""\ndescription: "x"\ndate: 2025-01-01\nauthor: "A"\n' +
        'tags: [Not A Tag]\ntag: x\ndoi: https://doi.org/10.5555/1\n---\nBody\n',
    )
    writeFileSync(
      join(content, 'Bad Name.md'),
      '---\ntitle: "T"\ndescription: "x"\ndate: 2025-01-01\nauthor: "A"\n---\nBody\n',
    )
    try {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(BuildError)
      const problems = (error as BuildError).problems
      expect(problems).toContainEqual(
        expect.objectContaining({ file: 'Bad Name.md', fix: expect.stringContaining('bad-name.md') }),
      )
      expect(problems).toContainEqual(expect.objectContaining({ file: 'two-faults.md', field: 'title' }))
      expect(problems).toContainEqual(expect.objectContaining({ file: 'two-faults.md', field: 'tags.0' }))
      expect(problems).toContainEqual(
        expect.objectContaining({ file: 'two-faults.md', field: 'tag', fix: expect.stringContaining('tags') }),
      )
      expect(problems).toContainEqual(
        expect.objectContaining({
          file: 'two-faults.md',
          field: 'doi',
          fix: expect.stringContaining('10.5555/12345678'),
        }),
      )
      expect(readlinkSync(join(dist, 'sites', configKey(BASE, content)))).toBe(liveBefore)
    } finally {
      unlinkSync(join(content, 'two-faults.md'))
      unlinkSync(join(content, 'Bad Name.md'))
    }
  }, 60_000)
})
