/**
 * The site search in Chromium, on a built site: the time from opening /search?q= to its results
 * (the index opened: shards.json, the search workers, each shard's metadata and the chunks the
 * query needs), then the time of later queries on the same page, each with the bytes it
 * downloaded and in how many requests. Pages come from a static server on this machine, so the
 * times are the browser's work and the bytes are what a reader's connection would carry: the
 * deployment's nginx with its own config, as readers are served, where nginx is installed, else
 * a plain Node server. On two cores the server's work competes with the browser's, and the Node
 * server's was a tenth of a query's time at 50,000 articles, nginx's next to none.
 *
 * `node bench/search-rows.ts <site dir>` prints the rows; scale.ts runs it on each size's build.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { edgeVars, startNginx, stopNginx } from '../test/support/nginx.ts'
import { CHROMIUM_PATH } from '../test/support/preflight.ts'
import { freePort } from '../test/support/processes.ts'

export interface SearchRow {
  figure: string
  ms: number
  bytes: number
  note: string
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
}

/** Serves the site at `root`: with the deployment's nginx where installed, else with Node. */
async function serveSite(root: string): Promise<{ origin: string; server: string; close: () => Promise<unknown> }> {
  if (spawnSync('nginx', ['-v']).status !== 0) return { ...(await serveStatic(root)), server: 'a Node static server' }
  const dir = mkdtempSync(join(tmpdir(), 'lattice-bench-nginx-'))
  const port = await freePort()
  // No service behind it: the search page and its files are the site's own.
  const vars = edgeVars({
    dir,
    port,
    distDir: dirname(dirname(root)),
    replicas: ['127.0.0.1:9', '127.0.0.1:9'],
    anonymousReadsPerMinute: 1_000_000,
    credentialedPerMinute: 1_000_000,
  })
  const nginx = await startNginx(dir, { ...vars, SITE_ROOT: root })
  return {
    origin: `http://127.0.0.1:${port}`,
    server: "the deployment's nginx",
    close: async () => {
      await stopNginx(nginx)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Serves `root` as the site's server does: `/search` is `search.html`. */
async function serveStatic(root: string) {
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    if (path.endsWith('/')) path += 'index'
    if (!extname(path)) path += '.html'
    try {
      const body = await readFile(join(root, path))
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' })
      res.end(body)
    } catch {
      res.writeHead(404)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) }
}

const DONE = /match|No article|unavailable/

/** Bytes and number of the responses the page receives from now until `stop()`. */
function countBytes(page: Page) {
  let bytes = 0
  let requests = 0
  const pending: Promise<void>[] = []
  const onResponse = (response: import('playwright-core').Response) => {
    requests++
    pending.push(
      response
        .request()
        .sizes()
        .then((s) => void (bytes += s.responseBodySize + s.responseHeadersSize))
        .catch(() => {}),
    )
  }
  page.on('response', onResponse)
  return async () => {
    page.off('response', onResponse)
    await Promise.all(pending)
    return { bytes, requests }
  }
}

/** Submits `q` (no typing delay) and returns the milliseconds until its results show. */
async function timedQuery(page: Page, q: string): Promise<{ ms: number; status: string }> {
  const status = page.locator('#site-search-status')
  await page.evaluate(() => {
    document.getElementById('site-search-status')!.textContent = ''
  })
  await page.locator('#site-search-q').evaluate((input: HTMLInputElement, value) => {
    input.value = value
  }, q)
  const started = performance.now()
  await page.locator('#site-search-form').evaluate((form: HTMLFormElement) => form.requestSubmit())
  await page.waitForFunction(
    (done) => new RegExp(done).test(document.getElementById('site-search-status')!.textContent ?? ''),
    DONE.source,
    { polling: 'raf', timeout: 120_000 },
  )
  return { ms: performance.now() - started, status: (await status.textContent()) ?? '' }
}

export async function searchRows(siteDir: string, label: string, queries: string[]): Promise<SearchRow[]> {
  const site = await serveSite(siteDir)
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  const rows: SearchRow[] = []
  try {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${site.origin}/search`)
    await page.waitForLoadState('networkidle')
    const [first, ...later] = queries
    let stop = countBytes(page)
    const opened = await timedQuery(page, first!)
    const got = await stop()
    rows.push({
      figure: `search ${label}: first query, index opened`,
      ms: opened.ms,
      bytes: got.bytes,
      note: `"${first}": ${opened.status}; ${got.requests} requests; served by ${site.server}`,
    })
    const times: number[] = []
    for (const q of later) {
      stop = countBytes(page)
      const { ms, status } = await timedQuery(page, q)
      times.push(ms)
      const { bytes, requests } = await stop()
      rows.push({ figure: `search ${label}: later query`, ms, bytes, note: `"${q}": ${status}; ${requests} requests` })
    }
    await context.close()
  } finally {
    await browser.close()
    await site.close()
  }
  return rows
}

/**
 * A query mix: a rare word, a common word, two words, a prefix, gibberish, a typo the page
 * corrects ("quihomlo": "quiholmo" with two letters swapped), a two-letter prefix.
 */
export const SEARCH_QUERIES = [
  'quiholmo',
  'nugan',
  'kalo mi',
  'holpe',
  'vofa',
  'qwertyuiop',
  'lumwafel',
  'quihomlo',
  'ho',
]

if (import.meta.main) {
  const dir = process.argv[2]
  if (!dir) throw new Error('usage: node bench/search-rows.ts <built site dir>')
  console.log('| figure | ms | KB | note |\n| --- | --- | --- | --- |')
  for (const r of await searchRows(dir, process.argv[3] ?? '', SEARCH_QUERIES))
    console.log(`| ${r.figure} | ${r.ms.toFixed(0)} | ${(r.bytes / 1024).toFixed(0)} | ${r.note} |`)
}
