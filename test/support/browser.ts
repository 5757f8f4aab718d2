import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { distOf, testDeps } from './index.ts'
import { CHROMIUM_PATH } from './preflight.ts'

/** Debian's Chromium, headless, without the background traffic a closed network refuses. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
}

/**
 * The whole origin (site and API) of the fixture build, on a real port; `overrides` go to createApp
 * (e.g. rate limits).
 */
export async function serveSite(
  overrides: Partial<AppDeps> = {},
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deps = await testDeps({ baseUrl: origin })
  server.on('request', createApp({ ...deps, siteDir: join(distOf('fixture'), 'current', 'site'), ...overrides }))
  return {
    origin,
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
      await deps.store.close()
    },
  }
}

/**
 * Opens `url` in a new page of `context` that records console errors, page errors and failed
 * requests, so that a test can insist there were none.
 */
export async function openWatched(context: BrowserContext, url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  // A request the page's own navigation cancelled (leaving it while its icon still loads) is
  // aborted by the browser, not failed by the site: any other failure is a problem.
  page.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText
    if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} (${reason})`)
  })
  await page.goto(url)
  return { page, problems }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Serious and critical accessibility violations found by axe-core on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Array<{ id: string; help: string; nodes: number }>> {
  // Evaluated through the DevTools protocol: the page's CSP (no inline scripts) stays intact.
  await page.evaluate(axeSource)
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: Array<{ id: string; help: string; impact: string; nodes: unknown[] }> }>
        }
      }
    ).axe
    return axe.run(document, { resultTypes: ['violations'] })
  })
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.length }))
}
