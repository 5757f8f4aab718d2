import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import { launchChromium } from '../support/browser.ts'
import { SHIPPED_CORPUS } from '../support/global-setup.ts'
import { freePort, siteEnv, startProcess, type Running } from '../support/processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const SLUG = 'tail-latency-in-fan-out-services'
/** Generous: the assertion is that the page changes by itself, not how fast (see npm run bench). */
const CHANGE_TIMEOUT_MS = 60_000
/** Each test waits for up to three builds. */
const TEST_TIMEOUT_MS = 4 * CHANGE_TIMEOUT_MS

describe('npm run dev in Chromium', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-dev-'))
  const content = join(tmp, 'content')
  const article = join(content, `${SLUG}.md`)
  let original: string
  let preview: Running
  let origin: string
  let browser: Browser
  let page: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    cpSync(SHIPPED_CORPUS, content, { recursive: true })
    original = readFileSync(article, 'utf8')
    // Scheduled: npm start would leave it out until 2099; the preview shows it, marked.
    writeFileSync(
      join(content, 'scheduled-in-preview.md'),
      '---\ntitle: "Scheduled In Preview"\ndescription: "Due in 2099."\ndate: 2099-01-01\n' +
        'author: "Ada Byrne"\ntags: [methodology]\n---\n\nNot yet.\n',
    )
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const env = siteEnv(tmp, content, port)
    preview = await startProcess('npm', ['run', 'dev', '--silent'], {
      cwd: ROOT,
      env,
      ready: /\[preview\] ready on/,
      timeoutMs: 200_000,
    })
    browser = await launchChromium()
    page = await browser.newPage()
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()))
    page.on('pageerror', (e) => pageErrors.push(e.message))
    await page.goto(`${origin}/posts/${SLUG}`)
  })
  afterAll(async () => {
    await browser?.close()
    await preview?.stop()
    rmSync(tmp, { recursive: true, force: true })
  })

  it('serves the site and the API at one origin, from a build of its own', async () => {
    expect(await page.title()).toContain('Tail Latency')
    const api = await fetch(`${origin}/api/v1/posts/${SLUG}`)
    expect(api.status).toBe(200)
    expect((await api.json()).slug).toBe(SLUG)
    // The preview's build sits apart from the one npm start serves.
    expect(readFileSync(join(tmp, 'dist', 'preview', 'current', 'build.json'), 'utf8')).toContain(content)
  })

  it('shows a scheduled article under a visible banner', async () => {
    const scheduled = await browser.newPage()
    try {
      await scheduled.goto(`${origin}/posts/scheduled-in-preview`)
      const banner = scheduled.getByRole('note').filter({ hasText: 'Scheduled:' })
      expect(await banner.isVisible()).toBe(true)
      expect(await banner.textContent()).toContain('published on 1 January 2099')
    } finally {
      await scheduled.close()
    }
  })

  it(
    'shows a saved edit in the open page without a reload by hand',
    async () => {
      const marker = `Edited while the preview runs ${randomUUID()}`
      await page.evaluate(() => ((window as unknown as { beforeEdit: boolean }).beforeEdit = true))
      writeFileSync(article, `${original.trimEnd()}\n\n${marker}\n`)
      await page.getByText(marker).waitFor({ timeout: CHANGE_TIMEOUT_MS })
      // The page reloaded itself: the old document (and what the test left on it) is gone.
      expect(await page.evaluate(() => (window as unknown as { beforeEdit?: boolean }).beforeEdit)).toBeUndefined()
      const post = await (await fetch(`${origin}/api/v1/posts/${SLUG}`)).json()
      expect(post.markdown).toContain(marker)
      expect(pageErrors).toEqual([])
    },
    TEST_TIMEOUT_MS,
  )

  it(
    'shows a bad frontmatter over the page and in the terminal, keeps serving, and clears once fixed',
    async () => {
      const good = readFileSync(article, 'utf8')
      // A misspelt field: the build names the file, the field and the fix.
      writeFileSync(article, good.replace(/^tags:/m, 'tag:'))
      const dialog = page.getByRole('dialog', { name: 'The preview could not build' })
      await dialog.waitFor({ timeout: CHANGE_TIMEOUT_MS })
      const text = await dialog.innerText()
      expect(text).toContain(`${SLUG}.md`)
      expect(text).toMatch(/\btag\b/)
      expect(text).toMatch(/Fix: remove it, or use one of: .*tags/)
      expect(await overlayViolations(page)).toEqual([])

      expect(preview.child.exitCode).toBeNull()
      const terminal = preview.output()
      expect(terminal).toContain(`${SLUG}.md`)
      expect(terminal).toMatch(/fix: remove it, or use one of/)
      // The last good build is still served, page and API.
      expect((await fetch(`${origin}/posts/${SLUG}`)).status).toBe(200)
      expect((await fetch(`${origin}/api/v1/posts/${SLUG}`)).status).toBe(200)

      writeFileSync(article, good)
      await dialog.waitFor({ state: 'detached', timeout: CHANGE_TIMEOUT_MS })
      expect(preview.child.exitCode).toBeNull()
      expect(pageErrors).toEqual([])
    },
    TEST_TIMEOUT_MS,
  )
})

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Accessibility violations (serious, critical) inside the preview's overlay only: the page behind is the site's. */
async function overlayViolations(page: Page): Promise<Array<{ id: string; help: string }>> {
  await page.evaluate(axeSource)
  const { violations, passed } = await page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; help: string; impact: string }>; passes: unknown[] }
    const axe = (window as unknown as { axe: { run: (ctx: object, opts: object) => Promise<Result> } }).axe
    const result = await axe.run({ include: [{ fromShadowDom: ['#lattice-preview-problems', 'dialog'] }] }, {})
    return { violations: result.violations, passed: result.passes.length }
  })
  // Rules passed: axe did reach the overlay inside its shadow root.
  expect(passed).toBeGreaterThan(3)
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help }))
}

describe('npm run dev started on a broken article', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-dev-broken-'))
  const content = join(tmp, 'content')
  const article = join(content, `${SLUG}.md`)
  let good: string
  let preview: Running
  let origin: string
  let browser: Browser

  beforeAll(async () => {
    cpSync(SHIPPED_CORPUS, content, { recursive: true })
    good = readFileSync(article, 'utf8')
    writeFileSync(article, good.replace(/^date: .*$/m, 'date: someday'))
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const env = siteEnv(tmp, content, port)
    preview = await startProcess('npm', ['run', 'dev', '--silent'], {
      cwd: ROOT,
      env,
      ready: /\[preview\] ready on/,
      timeoutMs: 200_000,
    })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await preview?.stop()
    rmSync(tmp, { recursive: true, force: true })
  })

  it(
    'shows the problem on a waiting page, then the site once the file is fixed',
    async () => {
      const page = await browser.newPage()
      const res = await page.goto(`${origin}/posts/${SLUG}`)
      expect(res?.status()).toBe(503)
      const dialog = page.getByRole('dialog', { name: 'The preview could not build' })
      await dialog.waitFor({ timeout: CHANGE_TIMEOUT_MS })
      expect(await dialog.innerText()).toMatch(/date: date "someday" is not a date written YYYY-MM-DD/)
      expect((await fetch(`${origin}/api/v1/posts`)).status).toBe(503)

      writeFileSync(article, good)
      await page.getByRole('heading', { level: 1, name: /Tail Latency/ }).waitFor({ timeout: TEST_TIMEOUT_MS / 2 })
      expect(await dialog.count()).toBe(0)
      expect((await fetch(`${origin}/api/v1/posts/${SLUG}`)).status).toBe(200)
    },
    TEST_TIMEOUT_MS,
  )
})
