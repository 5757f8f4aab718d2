import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../auth-service/errors.ts'
import { EDGE_DIR, detailFile, fileValidators } from '../../post-index/edge-files.ts'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { computeInputs, isStale } from '../../scripts/build-state.ts'
import { distOf, readIndexedPosts } from '../support/index.ts'
import { siteFile } from '../support/site-file.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const site = (path: string) => readFileSync(siteFile(join(distOf('fixture'), 'current'), path), 'utf8')

describe('the build of a content folder', () => {
  it('renders each article with its metadata, highlighted code and typeset math', () => {
    const html = site('posts/cafe-latency-notes.html')
    expect(html).toContain('<h1 class="page-title" data-pagefind-meta="title">Café Latency Notes</h1>')
    expect(html).toContain('Léa Fontaine')
    expect(html).toMatch(/<time datetime="2025-01-10">10 January 2025<\/time>/)
    expect(html).toMatch(/\d+ min read/)
    expect(html).toContain('href="/tags/performance"')
    expect(html).toMatch(/<pre class="astro-code[^"]*"[^>]*data-language="python"/)
    expect(html).toContain('class="katex-display"')
    expect(html).toContain('<annotation encoding="application/x-tex">\\rho = \\frac{\\lambda}{\\mu}</annotation>')
    expect(html).toContain('<table>')
    expect(html).toContain('<link rel="alternate" type="text/markdown" href="/posts/cafe-latency-notes.md">')
    expect(html).toContain('<link rel="canonical" href="http://localhost:4321/posts/cafe-latency-notes">')
  })

  it('writes citation tags, a Cite box and BibTeX, CSL-JSON and RIS twins for each article', () => {
    const html = site('posts/hashing-rings.html')
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain('<meta name="citation_title" content="Hashing Rings">')
    expect(head).toContain('<meta name="citation_author" content="Lindqvist, Jonas">')
    expect(head).toContain('<meta name="citation_doi" content="10.5555/hashing-rings.2025">')
    expect(head).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Lattice Research (Atom)" href="/atom.xml">',
    )
    expect(html).toContain('DOI: <a href="https://doi.org/10.5555/hashing-rings.2025">10.5555/hashing-rings.2025</a>')
    expect(html).toContain(
      'Lindqvist, J. (2025). Hashing Rings. <i>Lattice Research</i>. https://doi.org/10.5555/hashing-rings.2025',
    )
    expect(html).toContain('<a href="/posts/hashing-rings.bib" download>BibTeX</a>')
    expect(html).toContain('<a href="/posts/hashing-rings.ris" download>RIS</a> (EndNote, Zotero)')
    expect(site('posts/hashing-rings.bib')).toContain('doi = {10.5555/hashing-rings.2025},')
    expect(site('posts/hashing-rings.md')).toContain('- DOI: https://doi.org/10.5555/hashing-rings.2025\n')
    expect(JSON.parse(site('posts/cafe-latency-notes.csl.json'))).toEqual([
      expect.objectContaining({ id: 'cafe-latency-notes', title: 'Café Latency Notes' }),
    ])
    const ris = site('posts/hashing-rings.ris')
    expect(ris).toMatch(/^TY {2}- JOUR\r\nTI {2}- Hashing Rings\r\n[\s\S]*\r\nER {2}- \r\n$/)
    expect(ris).toContain('\r\nDO  - 10.5555/hashing-rings.2025\r\n')
    expect(site('posts/cafe-latency-notes.html')).not.toContain('class="cite-doi"')
  })

  it('strips scripts that an article embeds as raw HTML', () => {
    const html = site('posts/hashing-rings.html')
    expect(html).toContain('Each server owns arcs of a ring.')
    expect(html).not.toContain("alert('x')")
  })

  it('writes a markdown twin per article with its header and body', () => {
    const md = site('posts/cafe-latency-notes.md')
    expect(md.startsWith('# Café Latency Notes\n\n> Measuring espresso machine queues')).toBe(true)
    expect(md).toContain('- Author: Léa Fontaine')
    expect(md).toContain('- Canonical: http://localhost:4321/posts/cafe-latency-notes')
    expect(md).toContain('## Queues')
    expect(md).not.toMatch(/^---$/m)
  })

  it('lists the latest articles on the home page and every tag on the tag pages', () => {
    const home = site('index.html')
    const order = ['Hashing Rings', 'Café Latency Notes', 'Search Evaluation'].map((t) => home.indexOf(t))
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(site('tags.html')).toContain('href="/tags/distributed-systems"')
    const tagPage = site('tags/statistics.html')
    expect(tagPage).toContain('Café Latency Notes')
    expect(tagPage).not.toContain('Hashing Rings')
  })

  it('publishes a feed, a sitemap, robots.txt and llms.txt with absolute links', () => {
    const rss = site('rss.xml')
    expect(rss.match(/<item>/g)).toHaveLength(3)
    expect(rss).toContain('<link>http://localhost:4321/posts/hashing-rings</link>')
    expect(site('atom.xml').match(/<entry>/g)).toHaveLength(3)
    expect(site('sitemap-0.xml')).toContain('<loc>http://localhost:4321/posts/search-evaluation</loc>')
    expect(site('robots.txt')).toContain('Sitemap: http://localhost:4321/sitemap-index.xml')
    expect(site('robots.txt')).toContain('\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n')
    const llms = site('llms.txt')
    expect(llms.startsWith('# Lattice Research\n')).toBe(true)
    for (const slug of ['hashing-rings', 'cafe-latency-notes', 'search-evaluation'])
      expect(llms).toContain(`(http://localhost:4321/posts/${slug}.md)`)
    // And where a program goes next: everything in one file, the catalog, the MCP server.
    for (const path of ['/llms-full.txt', '/.well-known/api-catalog', '/mcp', '/mcp/server-card'])
      expect(llms).toContain(`(http://localhost:4321${path})`)
  })

  it('publishes auth.md with the flow on this origin and every error code the service can answer', () => {
    const md = site('auth.md')
    expect(md).toContain('curl -s -X POST http://localhost:4321/agent/identity')
    expect(md).toContain('grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer')
    for (const code of [...ERROR_CODES, 'invalid_issuer']) expect(md, code).toContain(`\`${code}\``)
  })

  it('indexes the articles with Pagefind, in the shards shards.json names', () => {
    const dir = join(distOf('fixture'), 'current', 'site', 'pagefind')
    const { shards } = JSON.parse(readFileSync(join(dir, 'shards.json'), 'utf8')) as { shards: string[] }
    // A handful of articles: one shard.
    expect(shards).toEqual(['0-0'])
    expect(existsSync(join(dir, '0-0', 'pagefind.js'))).toBe(true)
    // The runtime only: the site has its own search page.
    expect(existsSync(join(dir, '0-0', 'pagefind-ui.js'))).toBe(false)
    expect(readdirSync(join(dir, '0-0', 'fragment')).length).toBeGreaterThanOrEqual(3)
  })

  it('keeps the post index out of the public folder and records what it was built from', () => {
    const current = join(distOf('fixture'), 'current')
    expect(existsSync(join(current, 'site', 'post-index.json'))).toBe(false)
    const posts = readIndexedPosts(distOf('fixture'))
    expect(posts.map((p) => p.slug).sort()).toEqual(['cafe-latency-notes', 'hashing-rings', 'search-evaluation'])
    const info = JSON.parse(readFileSync(join(current, 'build.json'), 'utf8'))
    expect(info).toMatchObject({ contentDir: FIXTURE_CORPUS, baseUrl: 'http://localhost:4321', articles: 3 })
    // What `npm start` computes on its own finds the build current: the build's fingerprint, made
    // from the stats it took while reading, is the same.
    expect(isStale(distOf('fixture'), computeInputs(FIXTURE_CORPUS, 'http://localhost:4321'))).toBe(false)
  })

  it(
    'writes each article’s API answer as the file the edge ' +
      'serves: the service’s bytes, with the file’s validators',
    () => {
      const current = join(distOf('fixture'), 'current')
      const index = loadIndexFileSync(current, 'http://localhost:4321')
      const slugs = readIndexedPosts(distOf('fixture'))
        .map((p) => p.slug)
        .sort()
      // The edge's root holds the bucket links only, each bucket the files of its articles.
      const buckets = readdirSync(join(current, EDGE_DIR))
      for (const bucket of buckets) {
        expect(bucket).toMatch(/^\d{3}$/)
        expect(lstatSync(join(current, EDGE_DIR, bucket)).isSymbolicLink()).toBe(true)
      }
      const files = buckets.flatMap((b) => readdirSync(join(current, EDGE_DIR, b)))
      expect(files.filter((f) => /^[a-z0-9-]+\.json$/.test(f)).sort()).toEqual(slugs.map((s) => `${s}.json`))
      // page, twin, three citation files, JATS, Link header, two linksets, API answer; and the
      // Crossref deposit of the one article with a DOI
      expect(files.length).toBe(slugs.length * 10 + 1)
      for (const slug of slugs) {
        const file = detailFile(current, slug)
        const answer = index.detail(slug)!
        expect(readFileSync(file).equals(answer.body), slug).toBe(true)
        // What nginx sends for the file, and so what the service sends for the same answer.
        const { mtimeMs, size } = statSync(file)
        expect(answer.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
        expect({ etag: answer.etag, lastModified: answer.lastModified }).toEqual(fileValidators(mtimeMs, size))
      }
      // The site does not serve the edge's root.
      expect(existsSync(join(current, 'site', 'api'))).toBe(false)
      expect(existsSync(join(current, 'site', 'posts'))).toBe(false)
    },
  )

  it('keeps the authorization pages’ template beside the site, with its markers, and out of the sitemap', () => {
    const current = join(distOf('fixture'), 'current')
    expect(existsSync(join(current, 'site', 'authorize-template.html'))).toBe(false)
    const template = readFileSync(join(current, 'authorize.html'), 'utf8')
    expect(template).toContain('@@title@@')
    expect(template).toContain('@@content@@')
    expect(template).toMatch(/<link rel="stylesheet"/)
    expect(site('sitemap-0.xml')).not.toContain('authorize')
  })
})

describe('a bad content folder', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-bad-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  const buildWith = (files: Record<string, string>) => {
    const content = mkdtempSync(join(tmp, 'content-'))
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    for (const [name, text] of Object.entries(files)) writeFileSync(join(content, name), text)
    const dist = join(content, '..', `dist-${Date.now()}`)
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.ts')], {
      cwd: ROOT,
      env: { ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content, DIST_DIR: dist },
      encoding: 'utf8',
    })
    return { status: run.status, output: run.stdout + run.stderr, dist }
  }

  it('fails the build naming the file and the field', () => {
    const r = buildWith({
      'broken-entry.md':
        '---\ntitle: "Broken"\ndescription: "x"\ndate: 2025-01-01\nauthor: "A"\ntags: [Not A Tag]\n---\nBody\n',
    })
    expect(r.status).not.toBe(0)
    expect(r.output).toContain('broken-entry.md')
    expect(r.output).toContain('tags.0')
    expect(existsSync(join(r.dist, 'current'))).toBe(false)
  })

  it('fails on a missing title and on an unknown field', () => {
    const r = buildWith({
      'no-title.md': '---\ndescription: "x"\ndate: 2025-01-01\nauthor: "A"\ntag: [x]\n---\nBody\n',
    })
    expect(r.status).not.toBe(0)
    expect(r.output).toContain('no-title.md')
    expect(r.output).toMatch(/title/)
    expect(r.output).toMatch(/tag\b/)
  })

  it('fails on a file name that is not a slug', () => {
    const r = buildWith({
      'Bad Name.md': '---\ntitle: "T"\ndescription: "x"\ndate: 2025-01-01\nauthor: "A"\n---\nBody\n',
    })
    expect(r.status).not.toBe(0)
    expect(r.output).toContain('Bad Name.md')
  })
})
