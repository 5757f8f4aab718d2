import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium, openWatched, seriousViolations, serveSite } from '../support/browser.ts'

const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }

let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchChromium()
  site = await serveSite()
})
afterAll(async () => {
  for (const c of contexts) await c.close()
  await browser?.close()
  await site?.close()
})

async function portal(viewport: typeof DESKTOP, path = '/developers') {
  const context = await browser.newContext({ viewport })
  contexts.push(context)
  return openWatched(context, `${site.origin}${path}`)
}

/** The paths of the reference's pages, one per tag, from the portal's navigation. */
async function referencePages(): Promise<string[]> {
  const { page } = await portal(DESKTOP)
  const links = page.locator('.portal-sidebar .portal-reference a')
  return (await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname))).concat()
}

/** The reference's prose: everything people read, but not the samples or example answers. */
const referenceProse = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#reference p, #reference li, #schemas p, #schemas li, .schema-desc')]
      .filter((el) => !el.closest('pre'))
      .map((el) => el.textContent ?? '')
      .join('\n'),
  )

describe('the developer portal, read by a person', { timeout: 60_000 }, () => {
  it('at desktop width keeps its pages in a sidebar beside the content, in view all the way down', async () => {
    const { page, problems } = await portal(DESKTOP, '/developers/reference/agents')
    const sidebar = page.getByRole('navigation', { name: 'Sections of the portal' })
    expect(await sidebar.isVisible()).toBe(true)
    const box = async (sel: string) =>
      page
        .locator(sel)
        .first()
        .evaluate((e) => e.getBoundingClientRect().toJSON())
    expect((await box('.portal-sidebar')).right).toBeLessThan((await box('#reference')).left)
    expect(await sidebar.getByRole('link', { name: 'Agents' }).getAttribute('aria-current')).toBe('page')
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    const header = await box('.site-header')
    const after = await box('.portal-sidebar')
    expect(after.top).toBeGreaterThanOrEqual(header.bottom)
    expect(after.top).toBeLessThan(DESKTOP.height / 2)
    // Its links lead to their pages.
    await Promise.all([
      page.waitForURL(/\/developers\/schemas$/),
      sidebar.getByRole('link', { name: 'Schemas' }).click(),
    ])
    expect(await page.locator('h1').textContent()).toBe('Schemas')
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
  })

  it('at phone width puts no copy button over a sample, and nothing scrolls sideways', async () => {
    let copies = 0
    for (const path of [...(await referencePages()), '/developers/mcp']) {
      const { page, problems } = await portal(PHONE, path)
      const overlaps = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.sample:not([hidden])')].flatMap((sample) => {
          const button = sample.querySelector('button.copy')!.getBoundingClientRect()
          const pre = sample.querySelector('pre')!.getBoundingClientRect()
          const apart = button.bottom <= pre.top || button.top >= pre.bottom || button.right <= pre.left
          return apart ? [] : [sample.id]
        }),
      )
      copies += await page.locator('.sample:not([hidden]) button.copy:visible').count()
      expect(overlaps, path).toEqual([])
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(wider, path).toBeLessThanOrEqual(0)
      expect(problems, path).toEqual([])
    }
    expect(copies).toBeGreaterThan(10)
  })

  it('reads as people write: code as code, durations in days, 413 only where a body is sent', async () => {
    let prose = ''
    const statuses: Array<{ method: string | null; has413: boolean }> = []
    for (const path of [...(await referencePages()), '/developers/schemas']) {
      const { page, problems } = await portal(DESKTOP, path)
      prose += await referenceProse(page)
      statuses.push(
        ...(await page.locator('.endpoint').evaluateAll((endpoints) =>
          endpoints.map((e) => ({
            method: e.querySelector('.method')!.textContent,
            has413: [...e.querySelectorAll('.responses > li > code:first-child')].some((c) => c.textContent === '413'),
          })),
        )),
      )
      expect(problems, path).toEqual([])
    }
    expect(prose).toContain('expires after 90 days')
    expect(prose).not.toMatch(/\d{4,} seconds/)
    expect(prose).not.toContain('`')
    for (const s of statuses) expect(s.has413, s.method!).toBe(s.method !== 'GET')
    expect(statuses.some((s) => s.method === 'GET')).toBe(true)
  })

  it('fills no form field with a stand-in, and passes a registered identity on to the token exchange', async () => {
    const { page, problems } = await portal(DESKTOP, '/developers/reference/agents')
    const standIns = await page
      .locator('form.try-it input, form.try-it textarea')
      .evaluateAll((fields) => fields.map((f) => (f as HTMLInputElement).value).filter((v) => /<[^>]+>/.test(v)))
    expect(standIns).toEqual([])
    const assertion = page.locator('#try-exchangeToken-assertion')
    expect(await assertion.getAttribute('placeholder')).toMatch(/identity assertion/)
    await page.locator('form.try-it[data-path="/agent/identity"] button[type="submit"]').click()
    await expect.poll(() => assertion.inputValue(), { timeout: 10_000 }).toMatch(/^ey/)
    expect(problems).toEqual([])
  })

  it('once a key is made, every sample carries it, and the script comes from the build', async () => {
    const { page, problems } = await portal(DESKTOP, '/developers/reference/articles')
    const scripts = await page
      .locator('script')
      .evaluateAll((ss) =>
        ss.map((s) => ({ src: (s as HTMLScriptElement).src, inline: (s as HTMLScriptElement).text.trim().length > 0 })),
      )
    expect(scripts.filter((s) => s.inline)).toEqual([])
    expect(scripts.some((s) => /\/_astro\/[^/]+\.js$/.test(s.src))).toBe(true)
    await page.getByRole('button', { name: 'Create API key' }).click()
    const key = page.getByLabel('Your new API key')
    await expect.poll(() => key.inputValue(), { timeout: 10_000 }).toMatch(/^lat_live_/)
    const samples = await page.locator('pre').evaluateAll((pres) => pres.map((p) => p.textContent ?? ''))
    expect(samples.filter((s) => s.includes('YOUR_API_KEY'))).toEqual([])
    expect(samples.filter((s) => s.includes(`Bearer ${'lat_live_'}`)).length).toBeGreaterThan(5)
    expect(problems).toEqual([])
  })
})
