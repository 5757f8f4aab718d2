import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriousViolations } from '../support/browser.ts'
import { tempDir } from '../support/temp.ts'
import { poll, tryIt, usePortalBrowser } from '../support/portal-browser.ts'

/* Every page in Chromium: the site search, no console errors, no serious accessibility violations. */

const { newContext, openPage } = usePortalBrowser()

describe('the site search in Chromium', () => {
  it('finds articles by their full text with Pagefind, from a linked query', async () => {
    const context = await newContext()
    const { page, problems } = await openPage(context, '/search?q=espresso')
    const results = page.getByRole('list', { name: 'Search results' }).getByRole('link')
    await poll(() => results.allTextContents()).toEqual(['Café Latency Notes'])
    expect(await results.first().getAttribute('href')).toBe('/posts/cafe-latency-notes')
    await page.getByLabel('Search the articles').fill('virtual nodes')
    await poll(() => results.allTextContents()).toContain('Hashing Rings')
    expect(problems).toEqual([])
    await context.close()
  })
})

describe('every page', () => {
  it.each([
    '/',
    '/posts/cafe-latency-notes',
    '/tags',
    '/tags/performance',
    '/authors',
    '/authors/lea-fontaine',
    '/search',
    '/developers',
    '/developers/keys',
    '/developers/agents',
    '/developers/mcp',
    '/developers/reference/articles',
    '/developers/schemas',
    '/claim',
    '/no-such-page',
  ])(
    '%s loads without console errors and with no serious accessibility violations',
    async (path) => {
      const context = await newContext()
      const { page, problems } = await openPage(context, path)
      await page.waitForLoadState('networkidle')
      // The not-found page itself is a 404, as it should be; nothing else may fail.
      expect(problems.filter((p) => !(path === '/no-such-page' && p.includes('404')))).toEqual([])
      expect(await seriousViolations(page)).toEqual([])
      await context.close()
    },
    60_000,
  )

  it.each([
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 375, height: 740 }],
  ] as const)(
    'the portal fits a %s screen with a key and try-it answers shown, and stays accessible',
    async (name, viewport) => {
      const context = await newContext({ viewport, isMobile: name === 'phone' })
      const { page, problems } = await openPage(context, '/developers/reference/articles')
      await page.getByRole('button', { name: 'Create API key' }).click()
      await poll(() => page.locator('#key-prefix').textContent()).toMatch(/^lat_live_/)
      await tryIt(page, 'getPost').field(/^slug/).fill('cafe-latency-notes')
      expect((await tryIt(page, 'getPost').send()).status).toMatch(/^200/)
      await page.locator('#op-listPosts .example-response summary').click()
      // Code blocks and answers scroll inside themselves; the page itself must not scroll sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      expect(await page.evaluate(() => window.innerWidth)).toBe(viewport.width)
      // The screen a reader sees after trying an endpoint (a full-page shot of the long reference costs many seconds).
      await tryIt(page, 'getPost').form.locator('.try-status').scrollIntoViewIfNeeded()
      const shot = await page.screenshot({ path: join(tempDir('portal-shot'), `developers-${name}.png`) })
      expect(shot.subarray(1, 4).toString()).toBe('PNG')
      expect(await seriousViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    },
    60_000,
  )
})
