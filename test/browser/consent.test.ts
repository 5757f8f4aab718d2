import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchChromium, seriousViolations, serveSite } from '../support/browser.ts'
import { pkce } from '../support/oauth-person.ts'

let browser: Browser
let site: Awaited<ReturnType<typeof serveSite>>
// The client's loopback listener: where the browser lands with the answer.
let callback: Server
let callbackUrl = ''
const landed: string[] = []

beforeAll(async () => {
  browser = await launchChromium()
  site = await serveSite()
  callback = createServer((req, res) => {
    landed.push(req.url!)
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('You can close this window.')
  })
  await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r))
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`
})
afterAll(async () => {
  await browser?.close()
  await site?.close()
  callback?.closeAllConnections()
  await new Promise((r) => callback?.close(r))
})

async function authorizationUrl(): Promise<string> {
  const registered = await fetch(`${site.origin}/oauth2/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Browser Test Client', redirect_uris: [callbackUrl] }),
  })
  const { client_id } = (await registered.json()) as { client_id: string }
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: callbackUrl,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 'browser-state',
  })
  return `${site.origin}/oauth2/authorize?${q}`
}

describe('the consent page in Chromium', () => {
  // Three page loads each: one test took over its 20 s on a slow machine under the whole suite.
  it('is the site’s page without JavaScript', async () => {
    // No JavaScript at all: the decision is a plain form post.
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const failed: string[] = []
    page.on('requestfailed', (r) => failed.push(r.url()))
    await page.goto(await authorizationUrl())
    expect(await page.title()).toMatch(/^Allow access · /)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Browser Test Client')
    // The site's own header, navigation and stylesheet.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1)
    expect(await page.locator('link[rel="stylesheet"]').count()).toBeGreaterThan(0)
    const background = await page
      .getByRole('button', { name: 'Continue' })
      .evaluate((b) => getComputedStyle(b).backgroundColor)
    expect(background).not.toBe('rgba(0, 0, 0, 0)')
    expect(await page.getByText('127.0.0.1', { exact: false }).count()).toBeGreaterThan(0)
    expect(failed).toEqual([])
    await context.close()
  })

  it('is accessible', async () => {
    // axe needs scripts: the same page in a context with them.
    const withScripts = await browser.newContext()
    const checked = await withScripts.newPage()
    await checked.goto(await authorizationUrl())
    expect(await seriousViolations(checked)).toEqual([])
    await withScripts.close()
  })

  it('sends the code to the client from a plain form post', async () => {
    const noScripts = await browser.newContext({ javaScriptEnabled: false })
    const person = await noScripts.newPage()
    const failed: string[] = []
    person.on('requestfailed', (r) => failed.push(r.url()))
    await person.goto(await authorizationUrl())
    await Promise.all([
      person.waitForURL(`${callbackUrl}?**`),
      person.getByRole('button', { name: 'Continue' }).click(),
    ])
    const back = new URL(person.url())
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/)
    expect(back.searchParams.get('state')).toBe('browser-state')
    expect(back.searchParams.get('iss')).toBe(site.origin)
    expect(landed.some((u) => u.includes('code='))).toBe(true)
    expect(failed).toEqual([])
    await noScripts.close()
  })

  for (const colorScheme of ['light', 'dark'] as const)
    it(`at phone width (${colorScheme}), splits no scope name or identifier and scrolls nowhere sideways`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme })
      const page = await context.newPage()
      await page.goto(await authorizationUrl())
      const codes = await page
        .locator('.authorize dd code')
        .evaluateAll((els) =>
          els.map((el) => ({ text: el.textContent, lines: new Set([...el.getClientRects()].map((r) => r.top)).size })),
        )
      // The client id, both scope names and the resource: each on one line, whole.
      expect(codes.map((c) => c.text)).toEqual([
        expect.stringMatching(/^lat_client_/),
        'research.read',
        'research.search',
        expect.stringMatching(/\/api\/v1$/),
      ])
      for (const c of codes) expect(c, c.text!).toMatchObject({ lines: 1 })
      // Each value has the panel's width, under its label, not a narrow column beside it.
      const widths = await page.evaluate(() => ({
        panel: document.querySelector('.authorize dl')!.getBoundingClientRect().width,
        value: document.querySelector('.authorize dd')!.getBoundingClientRect().width,
      }))
      expect(widths.value).toBeGreaterThan(widths.panel * 0.95)
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
      expect(await seriousViolations(page)).toEqual([])
      await context.close()
    })

  it('sends access_denied when the person cancels', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(await authorizationUrl())
    await Promise.all([page.waitForURL(`${callbackUrl}?**`), page.getByRole('button', { name: 'Cancel' }).click()])
    const back = new URL(page.url())
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('state')).toBe('browser-state')
    await context.close()
  })

  it('cannot be framed by another page', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const url = await authorizationUrl()
    // An attacker's page on another origin (the callback listener's) that frames the consent page.
    await page.route(`${callbackUrl.replace('/callback', '/frame')}`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<iframe src="${url.replace(/&/g, '&amp;')}"></iframe>` }),
    )
    await page.goto(callbackUrl.replace('/callback', '/frame'))
    // Chromium refuses the frame (CSP frame-ancestors 'none') and shows its own error page instead.
    await expect.poll(() => page.frames()[1]?.url()).toMatch(/^chrome-error:/)
    await context.close()
  })
})
