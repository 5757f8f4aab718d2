import { Cite } from '@citation-js/core'
import '@citation-js/plugin-bibtex'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { build } from '../../scripts/build.ts'
import { launchChromium, openWatched, seriousViolations } from '../support/browser.ts'
import { testDeps } from '../support/index.ts'
import { tempDir } from '../support/temp.ts'

const BUILT_FOR = 'http://localhost:4321'
/** What the writer put in the frontmatter: every character that HTML, XML, BibTeX or JSON treats specially. */
const TITLE = `<script>alert("t")</script> {Braces} & 'quotes' $x^2$ 100% #1 a_b ~ \\ Ærø 東京`
// One person (" & " would name two): the characters that break naive escaping, without that word.
const AUTHOR = `Zoë <Z> "Q&A" van der Berg`
const DOI = '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O'
const SLUG = 'hostile-metadata'

let browser: Browser
let origin: string
let server: Server
let closeDeps: () => Promise<void>

beforeAll(async () => {
  const dir = tempDir('cite-box')
  const content = join(dir, 'content')
  mkdirSync(content)
  const yaml = (s: string) => JSON.stringify(s)
  writeFileSync(
    join(content, `${SLUG}.md`),
    `---\ntitle: ${yaml(TITLE)}\ndescription: ${yaml('A <b>description</b> & "more"')}\n` +
      `date: 2025-07-09\nauthor: ${yaml(AUTHOR)}\ntags: [citations]\ndoi: ${yaml(DOI)}\n---\n\nBody text.\n`,
  )
  writeFileSync(
    join(content, 'plain-article.md'),
    '---\ntitle: "Plain Article"\ndescription: "Plain."\ndate: 2025-01-02\nauthor: "Jonas Lindqvist"\n---\n\nBody.\n',
  )
  const dist = join(dir, 'dist')
  await build({ ...process.env, BASE_URL: BUILT_FOR, CONTENT_DIR: content, DIST_DIR: dist }, { search: false })
  server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deps = await testDeps({ baseUrl: origin })
  const index = loadIndexFileSync(join(dist, 'current'), origin)
  server.on('request', createApp({ ...deps, posts: () => index, siteDir: join(dist, 'current', 'site') }))
  closeDeps = () => deps.store.close()
  browser = await launchChromium()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  server?.closeAllConnections()
  await new Promise((r) => server?.close(r))
  await closeDeps?.()
})

const openArticle = (context: BrowserContext) => openWatched(context, `${origin}/posts/${SLUG}`)

describe('citations on an article page, in Chromium', () => {
  it('gives Google Scholar the metadata as written, however hostile', async () => {
    const context = await browser.newContext()
    const { page, problems } = await openArticle(context)
    const tags = await page.evaluate(() =>
      [...document.head.querySelectorAll('meta[name^="citation_"]')].map((m) => [
        m.getAttribute('name'),
        m.getAttribute('content'),
      ]),
    )
    expect(Object.fromEntries(tags)).toEqual({
      citation_title: TITLE,
      citation_author: 'van der Berg, Zoë <Z> "Q&A"',
      citation_publication_date: '2025/07/09',
      citation_online_date: '2025/07/09',
      citation_journal_title: 'Lattice Research',
      citation_abstract: 'A <b>description</b> & "more"',
      citation_abstract_html_url: `${BUILT_FOR}/posts/${SLUG}`,
      citation_fulltext_html_url: `${BUILT_FOR}/posts/${SLUG}`,
      citation_doi: DOI,
      citation_keywords: 'citations',
      citation_language: 'en',
    })
    // The title's <script> is text, never an element; the one data block is the JSON-LD, whole.
    const scripts = await page.evaluate(() => [...document.scripts].map((s) => [s.type, s.textContent]))
    expect(scripts.map(([type]) => type)).toEqual(['application/ld+json', expect.any(String)])
    expect(JSON.parse(scripts[0]![1]!)).toMatchObject({ headline: TITLE, author: [{ name: AUTHOR }] })
    expect(await page.title()).toBe(`${TITLE} · Lattice Research`)
    expect(problems).toEqual([])
    await context.close()
  })

  it('shows a Cite box whose copy buttons put the citation and the BibTeX entry on the clipboard', async () => {
    const context = await browser.newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    const { page, problems } = await openArticle(context)
    const box = page.locator('.cite-box')
    await expect
      .poll(() => box.locator('.cite-doi a').getAttribute('href'))
      .toBe('https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O')
    expect(await box.locator('.cite-doi a').textContent()).toBe(DOI)
    expect(await page.locator('#cite-text').isVisible()).toBe(false)
    await page.getByText('Cite this article').click()
    const text =
      `van der Berg, Z. Z. Q. (2025). ${TITLE}. Lattice Research. ` +
      `https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O`
    expect(await page.locator('#cite-text').textContent()).toBe(text)
    expect(await page.locator('#cite-text i').textContent()).toBe('Lattice Research')

    await box.getByRole('button', { name: 'Copy', exact: true }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text)
    expect(await box.getByRole('button', { name: 'Copied' }).count()).toBe(1)

    const bib = await (await fetch(`${origin}/posts/${SLUG}.bib`)).text()
    await box.getByRole('button', { name: 'Copy BibTeX' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(bib)
    const [entry] = new Cite(bib).data as Array<{ title: string; DOI: string }>
    expect(entry).toMatchObject({ title: TITLE, DOI })

    expect(await seriousViolations(page)).toEqual([])
    // The copy script runs under the site's Content Security Policy (no inline script).
    expect(problems).toEqual([])
    await context.close()
  })

  it('at phone width gives each entry the whole box, its button above it, and nothing to scroll sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const { page, problems } = await openArticle(context)
    await page.getByText('Cite this article').click()
    await expect.poll(() => page.locator('.cite-box button.copy').first().isVisible()).toBe(true)
    const layout = await page.evaluate(() => {
      const box = document.querySelector('.cite-box details')!.getBoundingClientRect()
      return [...document.querySelectorAll('.cite-entry')].map((entry) => {
        const content = entry.firstElementChild!
        const button = entry.querySelector('button')!.getBoundingClientRect()
        const r = content.getBoundingClientRect()
        return {
          share: r.width / box.width,
          buttonAbove: button.bottom <= r.top + 1,
          scrolls: content.scrollWidth > content.clientWidth,
        }
      })
    })
    expect(layout).toHaveLength(2)
    for (const entry of layout) {
      expect(entry.share).toBeGreaterThan(0.85)
      expect(entry).toMatchObject({ buttonAbove: true, scrolls: false })
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })

  it('keeps the citation readable and selectable without JavaScript, and hides the buttons', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const { page } = await openArticle(context)
    await page.getByText('Cite this article').click()
    expect(await page.locator('#cite-text').isVisible()).toBe(true)
    expect(await page.locator('#cite-bibtex').textContent()).toMatch(/^@article\{hostile-metadata,\n/)
    expect(
      await page.locator('.cite-box button').evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).hidden)),
    ).toEqual([true, true])
    // Every twin is a download link, without script too.
    const downloads = await page
      .locator('.cite-formats a[download]')
      .evaluateAll((links) => links.map((a) => `${a.textContent} ${a.getAttribute('href')}`))
    expect(downloads).toEqual([
      `BibTeX /posts/${SLUG}.bib`,
      `CSL-JSON /posts/${SLUG}.csl.json`,
      `RIS /posts/${SLUG}.ris`,
    ])
    await context.close()
  })

  it('links both feeds from the head, each well-formed XML in its registered type', async () => {
    const context = await browser.newContext()
    const { page } = await openArticle(context)
    const alternates = await page.evaluate(() =>
      [...document.head.querySelectorAll('link[rel="alternate"]')].map(
        (l) => `${l.getAttribute('type')} ${l.getAttribute('href')}`,
      ),
    )
    expect(alternates).toEqual([
      'application/rss+xml /rss.xml',
      'application/atom+xml /atom.xml',
      `text/markdown /posts/${SLUG}.md`,
    ])
    for (const [path, type] of [
      ['/rss.xml', 'application/rss+xml; charset=utf-8'],
      ['/atom.xml', 'application/atom+xml; charset=utf-8'],
    ] as const) {
      const res = await fetch(`${origin}${path}`)
      expect(res.headers.get('content-type')).toBe(type)
      // Chromium's XML parser is strict: one bad escape is a parsererror.
      const parsed = await page.evaluate(
        (xml) => {
          const doc = new DOMParser().parseFromString(xml, 'application/xml')
          return {
            error: doc.querySelector('parsererror')?.textContent ?? null,
            creators: [...doc.getElementsByTagNameNS('http://purl.org/dc/elements/1.1/', 'creator')].map(
              (e) => e.textContent,
            ),
            titles: [...doc.querySelectorAll('item > title, entry > title')].map((e) => e.textContent),
          }
        },
        await res.text(),
      )
      expect(parsed.error, path).toBeNull()
      expect(parsed.titles, path).toEqual([TITLE, 'Plain Article'])
      if (path === '/rss.xml') expect(parsed.creators).toEqual([AUTHOR, 'Jonas Lindqvist'])
    }
    await context.close()
  })

  it('serves the twins in their types, and the DOI through the API', async () => {
    const bib = await fetch(`${origin}/posts/${SLUG}.bib`)
    expect(bib.headers.get('content-type')).toBe('application/x-bibtex; charset=utf-8')
    const csl = await fetch(`${origin}/posts/${SLUG}.csl.json`)
    expect(csl.headers.get('content-type')).toBe('application/vnd.citationstyles.csl+json; charset=utf-8')
    expect(await csl.json()).toEqual([
      expect.objectContaining({ title: TITLE, DOI, author: [{ family: 'van der Berg', given: 'Zoë <Z> "Q&A"' }] }),
    ])
    const ris = await fetch(`${origin}/posts/${SLUG}.ris`)
    expect(ris.headers.get('content-type')).toBe('application/x-research-info-systems; charset=utf-8')
    // RIS escapes nothing: the hostile title and name are there as written, each on its one line.
    const lines = (await ris.text()).split('\r\n')
    expect(lines.filter((l) => /^(TI|AU|DO) /.test(l))).toEqual([
      `TI  - ${TITLE}`,
      'AU  - van der Berg, Zoë <Z> "Q&A"',
      `DO  - ${DOI}`,
    ])
    const post = await (await fetch(`${origin}/api/v1/posts/${SLUG}`)).json()
    expect(post).toMatchObject({ title: TITLE, author: AUTHOR, doi: DOI })
    expect((await (await fetch(`${origin}/api/v1/posts/plain-article`)).json()).doi).toBeNull()
  })
})
