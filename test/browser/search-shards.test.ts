import { cpSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { build } from '../../scripts/build.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { launchChromium, openWatched, serveSite } from '../support/browser.ts'
import { tempDir } from '../support/temp.ts'

/**
 * The sharded search index answers as one index would: the same corpus built with one shard and
 * with eight, searched on the site's search page in Chromium, gives the same articles in the same
 * order at the top.
 */
const ARTICLES = 300
const tmp = tempDir('search-shards-browser')
const content = join(tmp, 'content')
let browser: Browser
const sites: Record<'one' | 'eight', Awaited<ReturnType<typeof serveSite>>> = {} as never

beforeAll(async () => {
  generateCorpus(content, ARTICLES)
  const env = { ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content }
  await build({ ...env, DIST_DIR: join(tmp, 'one') }, { shardArticles: 1000 })
  // The same rendered articles: only the index differs.
  cpSync(join(tmp, 'one', 'cache'), join(tmp, 'eight', 'cache'), { recursive: true })
  await build({ ...env, DIST_DIR: join(tmp, 'eight') }, { shardArticles: 50 })
  browser = await launchChromium()
  for (const name of ['one', 'eight'] as const) sites[name] = await serveSite({ siteDir: join(tmp, name, 'current', 'site') })
}, 300_000)
afterAll(async () => {
  await browser?.close()
  for (const site of Object.values(sites)) await site.close()
})

const shardsOf = (name: string) => (JSON.parse(readFileSync(join(tmp, name, 'current', 'site', 'pagefind', 'shards.json'), 'utf8')) as { shards: string[] }).shards

/** Words of the corpus, from rare to common: the first word of some titles, and a pair. */
function queries(): string[] {
  const titles = readdirSync(content)
    .sort()
    .slice(0, 40)
    .map((f) => /^title: (.*)$/m.exec(readFileSync(join(content, f), 'utf8'))![1]!.toLowerCase().split(' '))
  return [...titles.slice(0, 6).map((t) => t[1]!), titles[7]![2]!, `${titles[9]![0]} ${titles[9]![1]}`, 'nugan']
}

/** The search page's answer: how many match, and the links shown, in order. */
async function search(name: 'one' | 'eight', q: string) {
  const context = await browser.newContext()
  try {
    const { page, problems } = await openWatched(context, `${sites[name].origin}/search?q=${encodeURIComponent(q)}`)
    const status = page.locator('#site-search-status')
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/match/)
    const links = await page.getByRole('list', { name: 'Search results' }).getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    expect(problems).toEqual([])
    return { status: await status.textContent(), links }
  } finally {
    await context.close()
  }
}

describe('the sharded search index in Chromium', () => {
  it('finds the same articles in the same order as one index', { timeout: 180_000 }, async () => {
    expect(shardsOf('one')).toHaveLength(1)
    expect(shardsOf('eight')).toHaveLength(8)
    for (const q of queries()) {
      const [one, eight] = [await search('one', q), await search('eight', q)]
      expect(eight.status, q).toBe(one.status)
      expect(one.links.length, q).toBeGreaterThan(0)
      expect(eight.links.slice(0, 10), q).toEqual(one.links.slice(0, 10))
    }
  })
})
