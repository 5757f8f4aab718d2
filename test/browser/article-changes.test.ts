import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openWatched, serveSite } from '../support/browser.ts'
import { distOf } from '../support/index.ts'

/** The shipped sample with a correction. */
const SLUG = 'second-chance-eviction-under-skew'

let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>

beforeAll(async () => {
  browser = await launchChromium()
  site = await serveSite({ siteDir: join(distOf('shipped'), 'current', 'site') })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

describe('the corrections section of an article, in Chromium at 1280 px', () => {
  it('stays in the article’s column, its heading styled as the sections’ headings', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const { page, problems } = await openWatched(context, `${site.origin}/posts/${SLUG}`)
    const seen = await page.evaluate(() => {
      const box = (s: string) => {
        const r = document.querySelector(s)!.getBoundingClientRect()
        return { left: r.left, right: r.right }
      }
      const font = (s: string) => {
        const c = getComputedStyle(document.querySelector(s)!)
        return { size: c.fontSize, family: c.fontFamily, weight: c.fontWeight, lineHeight: c.lineHeight }
      }
      return {
        column: box('.prose'),
        changes: box('.article-changes'),
        heading: font('.article-changes h2'),
        sectionHeading: font('.prose h2'),
      }
    })
    await context.close()
    expect(problems).toEqual([])
    // The column is narrower than the window, so a box that ignores it shows.
    expect(seen.column.right - seen.column.left).toBeLessThan(1000)
    expect(seen.changes.left).toBeGreaterThanOrEqual(seen.column.left - 0.5)
    expect(seen.changes.right).toBeLessThanOrEqual(seen.column.right + 0.5)
    expect(seen.heading).toEqual(seen.sectionHeading)
  })
})
