import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build } from '../../scripts/build.ts'
import { launchChromium, openWatched, seriousViolations, serveSite } from '../support/browser.ts'
import { writeListCorpus } from '../support/list-corpus.ts'
import { tempDir } from '../support/temp.ts'

/** Widths the reading pages are checked at: a desktop window and a phone. */
const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }
/** Each test loads several pages, runs axe and takes full-page screenshots: more than the default on a busy machine. */
const BROWSER_TEST_TIMEOUT = 90_000

const tmp = tempDir('reading-browser')
const shots = join(tmp, 'screenshots')
let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>
const contexts: BrowserContext[] = []

beforeAll(async () => {
  const content = join(tmp, 'content')
  mkdirSync(content)
  mkdirSync(shots)
  writeListCorpus(content, 60)
  const dist = join(tmp, 'dist')
  await build({ ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content, DIST_DIR: dist })
  browser = await launchChromium()
  site = await serveSite({ siteDir: join(dist, 'current', 'site') })
}, 180_000)
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close()
})
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** Opens a page at a width, failing the test on any console error or failed request. */
async function open(
  path: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport })
  contexts.push(context)
  return openWatched(context, `${site.origin}${path}`)
}

/** A full-page screenshot in the test's folder; returns its size in bytes. */
async function screenshot(page: Page, name: string): Promise<number> {
  const file = join(shots, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return statSync(file).size
}

/** How far the page is wider than the window: 0 when nothing overflows sideways. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

/** The cards' boxes, grouped into rows by their top edge. */
function cardRows(page: Page): Promise<Array<Array<{ height: number }>>> {
  return page.evaluate(() => {
    const rows = new Map<number, Array<{ height: number }>>()
    for (const card of document.querySelectorAll('.post-card')) {
      const r = card.getBoundingClientRect()
      const top = Math.round(r.top)
      rows.set(top, [...(rows.get(top) ?? []), { height: r.height }])
    }
    return [...rows.values()]
  })
}

/**
 * Every card's meta line, item by item: whether the item starts a line, and where its "·" is
 * relative to the line's clip box (the separator is the item's first `sepWidth` pixels).
 */
function metaItems(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.meta-line')].map((line) => {
      const clip = line.getBoundingClientRect()
      const items = [...line.querySelectorAll('li')]
      const sepWidth = parseFloat(getComputedStyle(items[0]!, '::before').width)
      let lastTop = -Infinity
      return items.map((li) => {
        const r = li.getBoundingClientRect()
        const startsLine = r.top > lastTop + 1
        lastTop = r.top
        // Every line box of the item's text, which must lie within the clip, wrapped or not.
        const range = document.createRange()
        range.selectNodeContents(li)
        const textInside = [...range.getClientRects()].every(
          (t) => t.left >= clip.left - 0.5 && t.right <= clip.right + 0.5,
        )
        return { startsLine, sepStart: r.left - clip.left, sepWidth, textInside, text: li.textContent }
      })
    }),
  )
}

describe('the list pages', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it(
    'at desktop width: cards of a row are equally tall, ' + 'covers are lazy, sized and described, the pages link on',
    async () => {
      const { page, problems } = await open('/', DESKTOP)
      const rows = await cardRows(page)
      expect(rows.length).toBeGreaterThan(2)
      expect(rows[0]!.length).toBeGreaterThan(1)
      for (const row of rows) for (const card of row) expect(Math.abs(card.height - row[0]!.height)).toBeLessThan(1)
      // The corpus has rows of unequal content: without the stretch the heights would differ.
      expect(new Set(rows.flat().map((c) => Math.round(c.height))).size).toBeGreaterThan(1)

      const covers = await page.locator('.post-card img').evaluateAll((imgs) =>
        imgs.map((i) => ({
          loading: i.getAttribute('loading'),
          decoding: i.getAttribute('decoding'),
          w: i.getAttribute('width'),
          h: i.getAttribute('height'),
          alt: i.getAttribute('alt'),
        })),
      )
      expect(covers).toHaveLength(8)
      for (const c of covers) expect(c).toMatchObject({ loading: 'lazy', decoding: 'async', w: '640', h: '360' })
      expect(covers.map((c) => c.alt)).toContain('Diagram for article 60')
      expect(covers.map((c) => c.alt)).toContain('Cover image of “Article 57”')

      const pages = page.getByRole('navigation', { name: 'Pages of articles' })
      expect(await pages.getByRole('link').allTextContents()).toEqual(['1', '2', '3', 'Older →'])
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      expect(await screenshot(page, 'home-desktop')).toBeGreaterThan(10_000)
      expect(await seriousViolations(page)).toEqual([])

      await Promise.all([page.waitForURL(/\/page\/2$/), pages.getByRole('link', { name: 'Older →' }).click()])
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Latest research, page 2 of 3')
      expect(
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Articles' })
          .getAttribute('aria-current'),
      ).toBe('page')
      expect(await page.locator('link[rel="prev"]').getAttribute('href')).toBe('http://localhost:4321/')
      expect(await page.locator('link[rel="next"]').getAttribute('href')).toBe('http://localhost:4321/page/3')
      expect(await page.locator('.post-card h2').first().textContent()).toMatch(/^Article 36\b/)
      expect(problems).toEqual([])
    },
  )

  it(
    'at phone width: nothing overflows sideways, and a ' + 'wrapped meta line leaves no separator at a line edge',
    async () => {
      const { page, problems } = await open('/', PHONE)
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      const lines = await metaItems(page)
      // Long author names make some lines wrap: the check below has something to check.
      expect(lines.some((items) => items.slice(1).some((i) => i.startsLine))).toBe(true)
      for (const items of lines)
        for (const item of items) {
          expect(item, item.text!).toMatchObject({ textInside: true })
          if (item.startsLine)
            expect(item.sepStart + item.sepWidth).toBeLessThanOrEqual(0.5) // "·" clipped away
          else expect(item.sepStart).toBeGreaterThanOrEqual(0) // "·" shown between two items of a line
        }
      expect(await screenshot(page, 'home-phone')).toBeGreaterThan(10_000)
      expect(await seriousViolations(page)).toEqual([])

      const tag = await open('/tags/systems/page/2', PHONE)
      expect(await tag.page.getByRole('heading', { level: 1 }).textContent()).toBe('Tagged “systems”')
      expect(await tag.page.locator('link[rel="prev"]').getAttribute('href')).toBe('http://localhost:4321/tags/systems')
      expect(await overflow(tag.page)).toBeLessThanOrEqual(0)
      expect(await seriousViolations(tag.page)).toEqual([])
      expect([...problems, ...tag.problems]).toEqual([])
    },
  )
})

describe('an article page', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  const shown = 'contents that lead to the headings, the cover, previous/next and related articles'
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    it(`at ${name} width: ${shown}`, async () => {
      const { page, problems } = await open('/posts/article-1', viewport)
      const toc = page.getByRole('navigation', { name: 'Contents' })
      expect(await toc.getByRole('link').allTextContents()).toEqual([
        'Method',
        'Sampling',
        'Results',
        'Threats & limits',
      ])
      for (const href of await toc.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')!)))
        expect(await page.locator(href).count()).toBe(1)
      const more = page.getByRole('navigation', { name: 'More articles' })
      // article-1 is the oldest: a next article, no previous one.
      expect(await more.locator('a[rel="prev"]').count()).toBe(0)
      expect(await more.locator('a[rel="next"]').getAttribute('href')).toBe('/posts/article-2')
      expect(await more.getByRole('region', { name: 'Related articles' }).getByRole('link').count()).toBe(3)
      // The article's own meta line follows the cards' rule: no "·" at the edge of a line.
      const [header] = await metaItems(page)
      expect(header!.map((i) => i.text)).toEqual([
        expect.any(String),
        expect.any(String),
        expect.stringMatching(/min read$/),
      ])
      for (const item of header!) {
        expect(item, item.text!).toMatchObject({ textInside: true })
        if (item.startsLine) expect(item.sepStart + item.sepWidth).toBeLessThanOrEqual(0.5)
        else expect(item.sepStart).toBeGreaterThanOrEqual(0)
      }
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      expect(await screenshot(page, `article-${name}`)).toBeGreaterThan(10_000)
      expect(await seriousViolations(page)).toEqual([])

      const covered = await open('/posts/article-6', viewport)
      const cover = covered.page.locator('.article-cover img')
      expect(await cover.getAttribute('alt')).toBe('Diagram for article 6')
      expect(
        await covered.page.evaluate(() => document.querySelector('.article-cover img')!.getBoundingClientRect().width),
      ).toBeGreaterThan(300)
      expect(await covered.page.locator('a[rel="prev"]').getAttribute('href')).toBe('/posts/article-5')
      expect(await seriousViolations(covered.page)).toEqual([])
      expect([...problems, ...covered.problems]).toEqual([])
    })
})

describe('the search page', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('offers the tags before a search, says what it searches, and makes room for the results', async () => {
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { page, problems } = await open('/search', viewport)
      const topics = page.getByRole('region', { name: 'Or browse by topic' })
      expect(await topics.getByRole('link').allTextContents()).toEqual([
        'systems',
        'learning',
        'retrieval',
        'statistics',
        'privacy',
      ])
      expect(await page.locator('#site-search-scope').textContent()).toMatch(
        /whole text of every article[\s\S]*titles, tags and\s+descriptions only/,
      )
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      expect(await screenshot(page, `search-empty-${name}`)).toBeGreaterThan(5_000)
      expect(await seriousViolations(page)).toEqual([])

      // The topics give way as soon as a query is typed (the results themselves are the portal test's).
      await page.getByLabel('Search the articles').fill('description')
      await expect.poll(() => topics.isVisible()).toBe(false)
      await page.getByLabel('Search the articles').fill('')
      await expect.poll(() => topics.isVisible()).toBe(true)
      expect(problems).toEqual([])
    }
  })
})
