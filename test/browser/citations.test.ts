import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { launchChromium, openWatched, seriousViolations } from '../support/browser.ts'
import { distOf, testDeps } from '../support/index.ts'

/** The shipped sample that uses every citation form (content/). */
const SLUG = 'cache-eviction-under-skewed-workloads'
const PHONE = { viewport: { width: 390, height: 760 }, isMobile: true, hasTouch: true }

let browser: Browser
let origin: string
let server: Server
let closeDeps: () => Promise<void>

beforeAll(async () => {
  const dist = distOf('shipped')
  server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deps = await testDeps({ baseUrl: origin })
  const index = loadIndexFileSync(join(dist, 'current'), origin)
  server.on('request', createApp({ ...deps, posts: () => index, siteDir: join(dist, 'current', 'site') }))
  closeDeps = () => deps.store.close()
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  server?.closeAllConnections()
  await new Promise((r) => server?.close(r))
  await closeDeps?.()
})

/** The first citation's popover: open or not, and where it sits in the viewport. */
const card = (page: Page) =>
  page.evaluate(() => {
    const el = document.getElementById('cite-1')!
    const r = el.getBoundingClientRect()
    const style = getComputedStyle(el)
    return {
      open: el.matches(':popover-open'),
      box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
      viewport: { width: innerWidth, height: innerHeight },
      background: style.backgroundColor,
      color: style.color,
      text: el.textContent ?? '',
    }
  })

describe.each(['light', 'dark'] as const)('a citation’s reference, in Chromium (%s)', (colorScheme) => {
  it('opens by keyboard beside the text, links to its entry, and closes with Escape', async () => {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1200, height: 900 } })
    const { page, problems } = await openWatched(context, `${origin}/posts/${SLUG}`)
    const button = page.locator('button.citation-ref').first()
    await button.focus()
    await page.keyboard.press('Enter')
    const open = await card(page)
    expect(open.open).toBe(true)
    expect(open.text).toContain('Breslau, L., Cao, P., Fan, L., Phillips, G., & Shenker, S. (1999).')
    // Beside the citation, inside the window.
    const cite = await button.boundingBox()
    expect(open.box.top).toBeGreaterThanOrEqual(cite!.y + cite!.height - 1)
    expect(open.box.top - (cite!.y + cite!.height)).toBeLessThan(40)
    expect(open.box.right).toBeLessThanOrEqual(open.viewport.width)
    expect(open.background).not.toBe(open.color)
    expect(await seriousViolations(page)).toEqual([])
    // Tab moves into the card: the DOI's link, then the link to the References list.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('href'))
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('https://doi.org/10.1109/INFCOM.1999.749260')
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('#ref-breslau1999')
    await page.keyboard.press('Escape')
    expect((await card(page)).open).toBe(false)
    await button.focus()
    await page.keyboard.press('Space')
    expect((await card(page)).open).toBe(true)
    await page.locator('#cite-1 a.citation-jump').click()
    expect(new URL(page.url()).hash).toBe('#ref-breslau1999')
    expect(await page.locator('#ref-breslau1999').isVisible()).toBe(true)
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)

  it('opens by a tap on a phone, inside the screen, and a tap elsewhere closes it', async () => {
    const context = await browser.newContext({ colorScheme, ...PHONE })
    const { page, problems } = await openWatched(context, `${origin}/posts/${SLUG}`)
    await page.locator('button.citation-ref').first().tap()
    const open = await card(page)
    expect(open.open).toBe(true)
    expect(open.box.left).toBeGreaterThanOrEqual(0)
    expect(open.box.right).toBeLessThanOrEqual(open.viewport.width)
    expect(open.box.bottom).toBeLessThanOrEqual(open.viewport.height)
    expect(open.box.top).toBeGreaterThanOrEqual(0)
    expect(await seriousViolations(page)).toEqual([])
    await page.locator('h1').tap()
    expect((await card(page)).open).toBe(false)
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
})

describe('cited by, in Chromium', () => {
  it('lists the sample that cites the replication by its DOI on the replication’s page', async () => {
    const context = await browser.newContext()
    const { page } = await openWatched(context, `${origin}/posts/second-chance-eviction-under-skew`)
    const citing = await page.locator('.cited-by a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    expect(citing).toEqual([`/posts/${SLUG}`])
    await context.close()
  }, 60_000)
})

describe('cross-references in Chromium', () => {
  it('link to the numbered figure, table, equation and section', async () => {
    const context = await browser.newContext()
    const { page } = await openWatched(context, `${origin}/posts/${SLUG}`)
    const links = await page
      .locator('a.crossref')
      .evaluateAll((as) =>
        as.map((a) => [
          a.textContent,
          a.getAttribute('href'),
          document.querySelector(a.getAttribute('href')!)?.tagName,
        ]),
      )
    expect(links).toEqual([
      ['Equation 1', '#eq-zipf', 'DIV'],
      ['Table 1', '#tbl-hit-ratio', 'TABLE'],
      ['Figure 1', '#fig-curves', 'FIGURE'],
      ['Section 2', '#sec-trace', 'H2'],
    ])
    expect(await page.locator('#eq-zipf .katex-display').textContent()).toContain('(1)')
    expect(await page.locator('#tbl-hit-ratio caption').textContent()).toBe(
      'Table 1: Hit ratio by policy and cache size, over the seven-day trace.',
    )
    await context.close()
  }, 60_000)
})
