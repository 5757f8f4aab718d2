/**
 * Chromium and the service serving the fixture site, for the browser tests of the developer
 * portal and the pages around it: `usePortalBrowser()` starts both before a file's tests and
 * closes them after; `tryIt` drives an operation's try-it form.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { launchChromium, openWatched, serveSite } from './browser.ts'

/** expect.poll with room for a browser on a busy machine (its default gives up after one second). */
export const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 })

export function usePortalBrowser() {
  let browser: Browser
  let served: Awaited<ReturnType<typeof serveSite>>
  beforeAll(async () => {
    browser = await launchChromium()
    // The service's own budgets: a read's RateLimit-Policy shows whether it came with a key.
    served = await serveSite({ rateLimits: DEFAULT_RATE_LIMITS })
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })
  return {
    /** The site's origin, once the tests run. */
    site: {
      get origin(): string {
        return served.origin
      },
    },
    newContext: (options?: BrowserContextOptions) => browser.newContext(options),
    /** A page that records console errors and failed requests, so a test can insist on none. */
    openPage: (context: BrowserContext, path: string) => openWatched(context, `${served.origin}${path}`),
  }
}

/** The try-it form of an operation, and a way to send it and wait for the answer. */
export function tryIt(page: Page, operationId: string) {
  const form = page.locator(`#op-${operationId} form.try-it`)
  return {
    form,
    field: (name: string | RegExp) => form.getByLabel(name),
    async send(): Promise<{ status: string; headers: string; body: string; request: string }> {
      await form.getByRole('button', { name: 'Send request' }).click()
      await poll(() => form.locator('.try-status').textContent()).toMatch(
        /^(\d{3}|Fill in|The request failed|No answer)/,
      )
      return {
        status: (await form.locator('.try-status').textContent()) ?? '',
        headers: (await form.locator('.try-headers').textContent()) ?? '',
        body: (await form.locator('.try-body').textContent()) ?? '',
        request: (await form.locator('.try-request').textContent()) ?? '',
      }
    },
  }
}
