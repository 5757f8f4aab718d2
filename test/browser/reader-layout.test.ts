import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { launchChromium, openWatched, seriousViolations, serveSite } from '../support/browser.ts'
import { writeListCorpus } from '../support/list-corpus.ts'
import { tempDir } from '../support/temp.ts'

/* The reader's pages in Chromium: cards, bylines, the corrections note, type, and the portal's pages. */

const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }
const TIMEOUT = 90_000

const CORRECTED = `---
title: "A Corrected Study"
description: "A study corrected after publication."
date: 2025-06-12
authors:
  - name: "Josiah Carberry"
    orcid: 0000-0002-1825-0097
    affiliation: "Brown University"
  - name: "Mateo García"
changes:
  - date: 2025-07-03
    note: "Corrected the cache size in Table 1."
tags: [systems]
---

${'The study measured caches under skewed load, and its first table had a wrong size. '.repeat(40)}
`

const tmp = tempDir('reader-layout')
let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>
const contexts: BrowserContext[] = []

beforeAll(async () => {
  const content = join(tmp, 'content')
  mkdirSync(content)
  writeListCorpus(content, 9)
  writeFileSync(join(content, 'a-corrected-study.md'), CORRECTED)
  writeFileSync(join(content, 'about.md'), '---\ntitle: "About us"\n---\n\nWho we are.\n')
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

async function open(path: string, viewport: typeof DESKTOP) {
  const context = await browser.newContext({ viewport })
  contexts.push(context)
  return openWatched(context, `${site.origin}${path}`)
}

describe('the home page’s cards', { timeout: TIMEOUT }, () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)
    it(`at ${name} width stay even, with a cover or without`, async () => {
      const { page, problems } = await open('/', viewport)
      const cards = await page.locator('.post-card').evaluateAll((els) =>
        els.map((card) => {
          const box = card.getBoundingClientRect()
          return {
            top: Math.round(box.top),
            height: Math.round(box.height),
            cover: Boolean(card.querySelector('img.cover')),
            // Where the title starts inside its card.
            titleAt: Math.round(card.querySelector('h2')!.getBoundingClientRect().top - box.top),
          }
        }),
      )
      expect(cards.some((c) => c.cover)).toBe(true)
      expect(cards.some((c) => !c.cover)).toBe(true)
      // Every title starts at the same height in its card, cover or not.
      expect(new Set(cards.map((c) => c.titleAt)).size).toBe(1)
      // The cards of a row are as tall as each other.
      const rows = Map.groupBy(cards, (c) => c.top)
      if (name === 'desktop') expect(rows.size).toBeLessThan(cards.length)
      for (const row of rows.values()) expect(new Set(row.map((c) => c.height)).size).toBe(1)
      expect(problems).toEqual([])
    })
})

describe('an article’s byline and corrections', { timeout: TIMEOUT }, () => {
  it('takes a reader from a byline name to the author’s page', async () => {
    const { page, problems } = await open('/posts/a-corrected-study', PHONE)
    const byline = page.locator('.article-header .byline')
    await Promise.all([
      page.waitForURL(/\/authors\/0000-0002-1825-0097$/),
      byline.getByRole('link', { name: 'Josiah Carberry', exact: true }).click(),
    ])
    expect(await page.locator('h1').textContent()).toBe('Josiah Carberry')
    expect(await page.locator('.author-facts').textContent()).toContain('Brown University')
    expect(await page.locator('.post-card h2').allTextContents()).toEqual(['A Corrected Study'])
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
  })

  it('says near its top when it was corrected, linking to the corrections', async () => {
    const { page, problems } = await open('/posts/a-corrected-study', PHONE)
    const note = page.getByRole('link', { name: 'Corrected on 3 July 2025' })
    // In the first screen, above the article's text.
    const noteBox = (await note.boundingBox())!
    expect(noteBox.y + noteBox.height).toBeLessThan(PHONE.height)
    expect(noteBox.y).toBeLessThan((await page.locator('.prose').boundingBox())!.y)
    await note.click()
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#article-changes-title')
    const at = await page.evaluate(() => ({
      heading: document.getElementById('article-changes-title')!.getBoundingClientRect().top,
      header: document.querySelector('.site-header')!.getBoundingClientRect().bottom,
    }))
    expect(at.heading).toBeGreaterThanOrEqual(at.header)
    expect(at.heading).toBeLessThan(PHONE.height / 2)
    expect(problems).toEqual([])
  })

  it('ends with links for readers, and none to the API', async () => {
    const { page } = await open('/posts/a-corrected-study', DESKTOP)
    const end = page.getByRole('navigation', { name: 'More to read' })
    expect(await end.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining(['Josiah Carberry', 'Mateo García', 'Citation', 'All tags', 'About', 'Atom']),
    )
    expect(await page.locator('article').textContent()).not.toContain('/api/v1')
    const footer = page.locator('.site-footer')
    expect(await footer.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining(['Authors', 'Search', 'About', 'RSS feed', 'Developers']),
    )
    expect(await footer.locator('a[href="/auth.md"], a[href="/claim"], a[href^="/api/"]').count()).toBe(0)
  })
})

describe('the header on a phone', { timeout: TIMEOUT }, () => {
  it('keeps its five links on one row under the brand from 360 px', async () => {
    for (const width of [360, 390]) {
      const { page } = await open('/', { width, height: 740 })
      const rows = await page
        .locator('.site-header nav li')
        .evaluateAll((lis) => new Set(lis.map((li) => Math.round(li.getBoundingClientRect().top))).size)
      expect(rows, `${width} px`).toBe(1)
      // In-page links land below it (reading.css keeps room for two rows).
      const bottom = await page.evaluate(() => document.querySelector('.site-header')!.getBoundingClientRect().bottom)
      expect(bottom, `${width} px`).toBeLessThanOrEqual(7.5 * 16)
    }
  })
})

describe('type', { timeout: TIMEOUT }, () => {
  it('sets the prose in a designed serif on Linux, not the generic Times-like fallback', async () => {
    const { page } = await open('/posts/a-corrected-study', DESKTOP)
    const stack = await page
      .locator('.prose p')
      .first()
      .evaluate((p) => getComputedStyle(p).fontFamily)
    // A face Linux desktops ship comes before the generic family.
    expect(stack).toMatch(/"Noto Serif".*"DejaVu Serif", serif$/)
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const { root } = await cdp.send('DOM.getDocument')
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '.prose p' })
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
    expect(fonts.length).toBeGreaterThan(0)
    for (const font of fonts) expect(font.familyName).not.toMatch(/Times|Liberation Serif|Nimbus Roman|Tinos/)
  })
})

describe('the developer portal at 390 px', { timeout: TIMEOUT }, () => {
  it('is a page per part, none of them endless, with a navigation a phone can use', async () => {
    const { page, problems } = await open('/developers', PHONE)
    const nav = page.getByRole('navigation', { name: 'Sections of the portal' })
    const links = await nav.getByRole('link').evaluateAll((as) =>
      as.map((a) => {
        const box = a.getBoundingClientRect()
        return { path: (a as HTMLAnchorElement).pathname, height: box.height, visible: box.width > 0 }
      }),
    )
    expect(links.map((l) => l.path)).toEqual(
      expect.arrayContaining(['/developers/keys', '/developers/agents', '/developers/mcp', '/developers/schemas']),
    )
    expect(links.filter((l) => l.path.startsWith('/developers/reference/')).length).toBeGreaterThan(3)
    // Shown on the phone, each a target a finger can take (WCAG 2.2 §2.5.8: at least 24 px).
    for (const l of links) expect(l.visible, l.path).toBe(true)
    for (const l of links) expect(l.height, l.path).toBeGreaterThanOrEqual(24)
    const heights: Record<string, number> = {}
    for (const { path } of links) {
      await Promise.all([page.waitForURL(`${site.origin}${path}`), nav.locator(`a[href="${path}"]`).click()])
      expect(await nav.locator('a[aria-current="page"]').getAttribute('href')).toBe(path)
      heights[path] = await page.evaluate(() => document.documentElement.scrollHeight)
    }
    // The single page was 54,546 px tall at this width.
    for (const [path, height] of Object.entries(heights)) expect(height, path).toBeLessThan(12_000)
    expect(problems).toEqual([])
  })
})
