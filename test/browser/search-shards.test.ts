import { cpSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import matter from 'gray-matter'
import type { Browser } from 'playwright-core'
import { build } from '../../scripts/build.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { launchChromium, openWatched, serveSite } from '../support/browser.ts'
import { tempDir } from '../support/temp.ts'

/**
 * The sharded search index against one index of the same corpus (one shard and eight), searched
 * on the site's search page in Chromium. Pagefind scores each shard with its own statistics (how
 * rare a word is, how long its pages are), so the order of many matches differs; and a shard
 * without a word offers near matches. What holds, and is tested: every article one index finds
 * is found, and the matches of a rare word are among the first shown.
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
  for (const name of ['one', 'eight'] as const)
    sites[name] = await serveSite({ siteDir: join(tmp, name, 'current', 'site') })
}, 300_000)
afterAll(async () => {
  await browser?.close()
  for (const site of Object.values(sites)) await site.close()
})

const shardsOf = (name: string) =>
  (
    JSON.parse(readFileSync(join(tmp, name, 'current', 'site', 'pagefind', 'shards.json'), 'utf8')) as {
      shards: string[]
    }
  ).shards

/** Words of the corpus, rare and common: words of some titles, a pair of them, and the commonest. */
function queries(): string[] {
  const titles = readdirSync(content)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .slice(0, 40)
    .map((f) =>
      String(matter(readFileSync(join(content, f), 'utf8')).data.title)
        .toLowerCase()
        .split(' '),
    )
  const words = [...new Set(titles.flat().filter((w) => w.length >= 4))]
  const pair = titles.find((t) => t.length >= 2)!
  return [...[0, 5, 10, 15, 20, 25].map((i) => words[i]!), `${pair[0]} ${pair[1]}`, 'nugan']
}

/** The search page's answer: how many match, and the links shown, in order. */
async function search(name: 'one' | 'eight', q: string) {
  const context = await browser.newContext()
  try {
    const { page, problems } = await openWatched(context, `${sites[name].origin}/search?q=${encodeURIComponent(q)}`)
    const status = page.locator('#site-search-status')
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/match/)
    const links = await page
      .getByRole('list', { name: 'Search results' })
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    expect(problems).toEqual([])
    return { status: await status.textContent(), links }
  } finally {
    await context.close()
  }
}

describe('the sharded search index in Chromium', () => {
  it("finds every article one index finds, a rare word's matches among the first shown", {
    timeout: 180_000,
  }, async () => {
    expect(shardsOf('one')).toHaveLength(1)
    expect(shardsOf('eight')).toHaveLength(8)
    const count = (status: string | null) => Number(/^(\d+) /.exec(status ?? '')?.[1])
    let rare = 0
    for (const q of queries()) {
      const [one, eight] = [await search('one', q), await search('eight', q)]
      expect(one.links.length, `${q}: ${one.status}`).toBeGreaterThan(0)
      expect(count(eight.status), q).toBeGreaterThanOrEqual(count(one.status))
      // A word every shard has: the same number of matches.
      if (count(one.status) === ARTICLES) expect(count(eight.status), q).toBe(ARTICLES)
      // A rare word (every match shown): all of them shown among the sharded index's first results.
      if (count(one.status) === one.links.length && one.links.length <= 10) {
        rare++
        expect(eight.links, q).toEqual(expect.arrayContaining(one.links))
      }
    }
    expect(rare).toBeGreaterThanOrEqual(2)
  })
})
