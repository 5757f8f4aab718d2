import { mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { articleFile } from '../../model/article-bucket.ts'
import { build, BuildError } from '../../scripts/build.ts'
import { RACY_MS } from '../../scripts/builder/source-stats.ts'
import { writeCitedArticles, writeCitingArticle } from '../support/cited-corpus.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'http://localhost:4321'
const BIB = `@article{belady1966,
  author  = {Belady, Laszlo A.},
  title   = {A Study of Replacement Algorithms for a Virtual-Storage Computer},
  journal = {IBM Systems Journal},
  year    = {1966}, volume = {5}, number = {2}, pages = {78--101},
  doi     = {10.1147/sj.52.0078}
}
`
const SHARED = `@inproceedings{oneil1993,
  author    = {O'Neil, Elizabeth J. and O'Neil, Patrick E. and Weikum, Gerhard},
  title     = {The {LRU-K} Page Replacement Algorithm for Database Disk Buffering},
  booktitle = {Proceedings of the 1993 ACM SIGMOD International Conference on Management of Data},
  year      = {1993}, pages = {297--306},
  doi       = {10.1145/170035.170081}
}
`
const ARTICLE = `---
title: "Eviction"
description: "An article that cites."
date: 2025-01-02
author: "Ada Writer"
bibliography: eviction.bib
---

## Background {#sec-background}

The optimum is known [@belady1966]; LRU-K keeps more history [@oneil1993].

![A plot](/images/plot.png){#fig-plot}

See @fig-plot and @sec-background.
`

describe('a build with citations and cross-references', () => {
  const root = tempDir('references-build')
  const content = join(root, 'content')
  const dist = join(root, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const page = (form: 'page' | 'md' = 'page') =>
    readFileSync(articleFile(join(dist, 'current'), 'eviction', form), 'utf8')
  const live = () => readlinkSync(join(dist, 'current'))
  const write = (file: string, text: string) => writeFileSync(join(content, file), text)
  /** The build's problems, the live build left as it was. */
  const refused = async () => {
    const before = live()
    const error = await build(env, { search: false }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BuildError)
    expect(live()).toBe(before)
    return (error as BuildError).problems
  }

  beforeAll(async () => {
    mkdirSync(content, { recursive: true })
    write('eviction.md', ARTICLE)
    write('eviction.bib', BIB)
    write('references.bib', SHARED)
    // Older than the racy window, so that the build records their stats (source-stats.ts).
    await sleep(RACY_MS + 100)
    await build(env, { search: false })
  }, 180_000)

  it('renders citations from the article’s and the shared bibliography, and the References list', () => {
    const html = page()
    expect(html).toContain('popovertarget="cite-1">(Belady, 1966)</button>')
    expect(html).toContain('<div id="ref-oneil1993" class="csl-entry">')
    expect(html).toContain('<figcaption>Figure 1: A plot</figcaption>')
    expect(page('md')).toContain('[(Belady, 1966)](#ref-belady1966)')
    expect(page('md')).toContain('## References')
  })

  it('gives machines the references: Highwire tags, JSON-LD, the API, llms-full.txt', () => {
    const html = page()
    expect(html).toContain(
      '<meta name="citation_reference" content="citation_title=A Study of Replacement Algorithms for a ' +
        'Virtual-Storage Computer; citation_author=Belady, Laszlo A.; citation_publication_date=1966; ' +
        'citation_journal_title=IBM Systems Journal; citation_volume=5; citation_issue=2; citation_firstpage=78; ' +
        'citation_doi=10.1147/sj.52.0078">',
    )
    expect(html.match(/name="citation_reference"/g)).toHaveLength(2)
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!)
    expect(ld.citation.map((c: { '@id': string }) => c['@id'])).toEqual([
      'https://doi.org/10.1147/sj.52.0078',
      'https://doi.org/10.1145/170035.170081',
    ])
    const api = JSON.parse(readFileSync(articleFile(join(dist, 'current'), 'eviction', 'json'), 'utf8'))
    const full = readFileSync(join(dist, 'current', 'site', 'llms-full.txt'), 'utf8')
    for (const text of [api.markdown, full]) {
      expect(text).toContain('The optimum is known [(Belady, 1966)](#ref-belady1966)')
      expect(text).not.toMatch(/\[@|\{#|@fig-/)
    }
  })

  it('sees an edited bibliography, though the article file is unchanged', async () => {
    const state = readFileSync(join(dist, 'current', 'state.ndjson'), 'utf8')
    // The article's stat signature covers its bibliographies' too.
    expect(state).toMatch(/"slug":"eviction".*"\d+:[\d.]+:[\d.]+:\d+\|\d+:[\d.]+:[\d.]+:\d+\|/)
    write('eviction.bib', BIB.replace('A Study of Replacement Algorithms', 'A Study of Page Replacement'))
    await build(env, { search: false })
    expect(page()).toContain('A Study of Page Replacement')
  }, 120_000)

  it('refuses an unknown key with its line and the near key, and keeps the live build', async () => {
    write('eviction.md', ARTICLE.replace('[@belady1966]', '[@beladi1966]'))
    expect(await refused()).toEqual([
      {
        file: 'eviction.md',
        line: 11,
        message: 'the citation key @beladi1966 is in no bibliography of the article',
        fix: 'did you mean @belady1966?',
      },
    ])
    expect(page()).toContain('(Belady, 1966)')
  }, 120_000)

  it('refuses an unknown cross-reference and a duplicate label, each with its line', async () => {
    write('eviction.md', `${ARTICLE.replace('See @fig-plot', 'See @fig-plt')}\n![Again](/images/b.png){#fig-plot}\n`)
    const problems = await refused()
    expect(problems.map((p) => [p.file, p.line, p.message, p.fix])).toEqual([
      ['eviction.md', 17, 'the label "fig-plot" is used twice (first on line 13)', expect.any(String)],
      [
        'eviction.md',
        15,
        'the cross-reference @fig-plt names no figure, table, equation or section',
        'did you mean @fig-plot?',
      ],
    ])
  }, 120_000)

  it('refuses a missing bibliography with the near file name', async () => {
    write('eviction.md', ARTICLE.replace('bibliography: eviction.bib', 'bibliography: evictions.bib'))
    expect(await refused()).toEqual([
      {
        file: 'eviction.md',
        line: 6,
        field: 'bibliography',
        message: 'the bibliography file "evictions.bib" does not exist',
        fix: 'did you mean "eviction.bib"?',
      },
    ])
  }, 120_000)

  it('refuses a malformed bibliography with its line', async () => {
    write('eviction.md', ARTICLE)
    write('eviction.bib', `${BIB}\n@book{broken,\n  title = {Unclosed\n}\n`)
    const [problem, ...rest] = await refused()
    expect(rest).toEqual([])
    expect(problem).toMatchObject({
      file: 'eviction.bib',
      line: 12,
      message: expect.stringContaining('does not parse'),
    })
  }, 120_000)

  it('refuses an unknown CSL style', async () => {
    write('eviction.bib', BIB)
    write('eviction.md', ARTICLE.replace('bibliography: eviction.bib', 'bibliography: eviction.bib\ncsl: chicago.csl'))
    write('chicago.csl', '<?xml version="1.0"?><html/>')
    expect(await refused()).toEqual([
      expect.objectContaining({ file: 'chicago.csl', message: expect.stringContaining('not a CSL style') }),
    ])
    write('eviction.md', ARTICLE.replace('bibliography: eviction.bib', 'bibliography: eviction.bib\ncsl: chicgo.csl'))
    expect(await refused()).toEqual([
      expect.objectContaining({ file: 'eviction.md', line: 7, fix: 'did you mean "chicago.csl"?' }),
    ])
    expect(readdirSync(content)).toContain('chicago.csl')
  }, 120_000)
})

describe('cited by, inside the publication', () => {
  const root = tempDir('cited-by')
  const content = join(root, 'content')
  const dist = join(root, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const file = (slug: string) => articleFile(join(dist, 'current'), slug, 'page')
  const citing = (slug: string) => {
    const html = readFileSync(file(slug), 'utf8')
    const list = /<h2 id="article-cited-by-heading">Cited by<\/h2><ul>(.*?)<\/ul>/.exec(html)?.[1] ?? ''
    return [...list.matchAll(/href="\/posts\/([^"]+)"/g)].map((m) => m[1])
  }

  beforeAll(async () => {
    writeCitedArticles(content, BASE)
    writeCitingArticle(content, 'citing', 'Citing', '2025-01-04', '[@cited; @byurl]')
    await build(env, { search: false })
  }, 180_000)

  it('lists on an article’s page the articles citing its DOI or its address', () => {
    expect(citing('cited')).toEqual(['citing'])
    expect(citing('by-url')).toEqual(['citing'])
    expect(citing('unrelated')).toEqual([])
    expect(citing('citing')).toEqual([])
  })

  it('rewrites the pages whose cited-by list changed when the citing article is edited, and no other', async () => {
    const unrelated = statSync(file('unrelated')).ino
    writeCitingArticle(content, 'citing', 'Citing', '2025-01-04', '[@byurl]')
    await build(env, { search: false })
    expect(citing('cited')).toEqual([])
    expect(citing('by-url')).toEqual(['citing'])
    expect(statSync(file('unrelated')).ino).toBe(unrelated)
  }, 120_000)
})
