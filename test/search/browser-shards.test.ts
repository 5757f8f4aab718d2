import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import matter from 'gray-matter'
import type { Browser } from 'playwright-core'
import { build } from '../../scripts/build.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { launchChromium, openWatched, serveSite } from '../support/browser.ts'
import { chunksOf } from '../../search/browser/search-rank.js'
import { tempDir } from '../support/temp.ts'

/**
 * The sharded search index against one index of the same corpus (one shard and eight), searched
 * on the site's search page in Chromium: the same number of matches, the same articles in the
 * same order. Each shard alone would rank with its own statistics and offer near matches for a
 * word it lacks; the page ranks with the whole index's (search/browser/search-rank.js).
 */
const ARTICLES = 300
const tmp = tempDir('search-shards-browser')
const content = join(tmp, 'content')
let browser: Browser
type Site = 'one' | 'eight' | 'older'
const sites: Record<Site, Awaited<ReturnType<typeof serveSite>>> = {} as never

beforeAll(async () => {
  generateCorpus(content, ARTICLES)
  const env = { ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content }
  await build({ ...env, DIST_DIR: join(tmp, 'one') }, { shardArticles: 1000 })
  // The same rendered articles: only the index differs.
  cpSync(join(tmp, 'one', 'cache'), join(tmp, 'eight', 'cache'), { recursive: true })
  await build({ ...env, DIST_DIR: join(tmp, 'eight') }, { shardArticles: 50 })
  // The eight shards' site with its groups in a format the page does not know, as a new site
  // meets the live index while its own is being built.
  cpSync(join(tmp, 'eight', 'current', 'site'), join(tmp, 'older', 'current', 'site'), {
    recursive: true,
    dereference: true,
  })
  const index = join(tmp, 'older', 'current', 'site', 'pagefind', 'shards.json')
  const older = JSON.parse(readFileSync(index, 'utf8')) as { groups: { format?: number }[] }
  for (const group of older.groups) group.format = 1
  writeFileSync(index, JSON.stringify(older))
  browser = await launchChromium()
  for (const name of ['one', 'eight', 'older'] as const)
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

/** Words of the corpus, rare and common: words of some titles, pairs of them, and the commonest. */
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
  const pairs = titles.filter((t) => t.length >= 3).slice(0, 3)
  return [
    ...[0, 5, 10, 15, 20, 25, 30].map((i) => words[i]!),
    ...pairs.map((t) => `${t[0]} ${t[2]}`),
    'nugan',
    'cost grows',
  ]
}

/** The search page's answer: its status line, and the links shown, in order. */
async function search(name: Site, q: string) {
  const context = await browser.newContext()
  try {
    const fetched: string[] = []
    context.on('request', (r) => fetched.push(new URL(r.url()).pathname))
    const { page, problems } = await openWatched(context, `${sites[name].origin}/search?q=${encodeURIComponent(q)}`)
    const status = page.locator('#site-search-status')
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/match|No article/)
    const results = page.getByRole('list', { name: 'Search results' })
    const links = await results.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    const excerpts = await results.locator('.result-desc').allTextContents()
    expect(problems).toEqual([])
    return { status: await status.textContent(), links, excerpts, page, context, fetched }
  } catch (error) {
    await context.close()
    throw error
  }
}

const count = (status: string | null) => Number(/^(\d+) /.exec(status ?? '')?.[1] ?? 0)

describe('the sharded search index in Chromium', () => {
  it('answers as one index: the same matches, the same articles in the same order', {
    timeout: 240_000,
  }, async () => {
    expect(shardsOf('one')).toHaveLength(1)
    expect(shardsOf('eight')).toHaveLength(8)
    let rare = 0
    for (const q of queries()) {
      const one = await search('one', q)
      const eight = await search('eight', q)
      await one.context.close()
      await eight.context.close()
      expect(count(one.status), `${q}: ${one.status}`).toBeGreaterThan(0)
      expect(eight.status, q).toBe(one.status)
      // Every result shown (the first 20), the top 10 among them, in the same order.
      expect(eight.links, q).toEqual(one.links)
      if (count(one.status) < 20) rare++
    }
    // Rare words, which each shard alone ranks (and matches) worst, were among the queries.
    expect(rare).toBeGreaterThanOrEqual(2)
  })

  it("reads a prefix's words from their block, and an index with groups it does not know from its shards", {
    timeout: 120_000,
  }, async () => {
    // A prefix whose words span two or more files of a block in the eight shards' group.
    const [group] = (
      JSON.parse(readFileSync(join(tmp, 'eight', 'current', 'site', 'pagefind', 'shards.json'), 'utf8')) as {
        groups: { first: string[]; blocks: string[]; blockFiles: number }[]
      }
    ).groups
    const inBlock = (at: number[]) =>
      at.some((i, k) => k > 0 && Math.floor(i / group!.blockFiles) === Math.floor(at[k - 1]! / group!.blockFiles))
    const stem = [1, 2]
      .flatMap((n) => group!.first.map((w) => w.slice(0, n)))
      .find((p) => p && inBlock(chunksOf(group!.first, p)))
    expect(stem, group!.first.join(' ')).toBeDefined()
    const answers = []
    for (const name of ['one', 'eight', 'older'] as const) {
      const answer = await search(name, `nugan ${stem}`)
      await answer.context.close()
      answers.push(answer)
    }
    const [one, eight, older] = answers
    expect(count(one!.status)).toBeGreaterThan(0)
    for (const other of [eight!, older!]) {
      expect(other.status).toBe(one!.status)
      expect(other.links).toEqual(one!.links)
      expect(other.excerpts).toEqual(one!.excerpts)
    }
    const files = (a: { fetched: string[] }, ext: string) =>
      a.fetched.filter((p) => p.endsWith(ext)).map((p) => p.split('/').pop()!.replace(ext, ''))
    expect(files(eight!, '.pf_group').some((name) => group!.blocks.includes(name))).toBe(true)
    expect(files(eight!, '.pf_score')).toEqual([])
    // The older index: its shards' score files, none of its groups'.
    expect(files(older!, '.pf_group')).toEqual([])
    expect(files(older!, '.pf_score').length).toBeGreaterThan(0)
  })

  it('shows the same data and excerpts from eight shards as from one', {
    timeout: 60_000,
  }, async () => {
    const q = queries()[1]!
    const one = await search('one', q)
    await one.context.close()
    const context = await browser.newContext()
    try {
      const { page, problems } = await openWatched(context, `${sites.eight.origin}/search`)
      const fetched: string[] = []
      page.on('request', (r) => fetched.push(new URL(r.url()).pathname))
      // From the results' fragments and the places of their words, which each shard's build wrote.
      // A string, so that the test runner leaves the page's own import() alone.
      const shown = (await page.evaluate(`(async () => {
        const { openSearch } = await import('/scripts/search-client.js')
        const index = await openSearch('/pagefind/')
        const found = await index.search(${JSON.stringify(q)})
        const text = (html) => new DOMParser().parseFromString('<p>' + html + '</p>', 'text/html').body.textContent
        return (await found.top(20)).map((r) => [r.url.replace(/[.]html$/, ''), text(r.sentence_excerpt)])
      })()`)) as Array<[string, string]>
      expect(shown.map(([url]) => url)).toEqual(one.links)
      expect(shown.map(([, excerpt]) => excerpt)).toEqual(one.excerpts)
      // The scores of the eight shards' one group, not each shard's own.
      expect(fetched.filter((p) => p.endsWith('.pf_group')).length).toBeGreaterThan(0)
      expect(fetched.filter((p) => p.endsWith('.pf_score'))).toEqual([])
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('scores each article and cuts its excerpt as Pagefind does in one index', { timeout: 120_000 }, async () => {
    const context = await browser.newContext()
    try {
      const { page, problems } = await openWatched(context, `${sites.one.origin}/search`)
      // Pagefind's own scores and excerpts, from its JavaScript API on the one shard (with the
      // chunks past the one each term falls in, which it would not load itself), against the
      // page's, from the scores and places the build wrote. A string, so that the test runner
      // leaves the page's imports alone.
      const compared = (await page.evaluate(`(async () => {
        const { openSearch } = await import('/scripts/search-client.js')
        const { chunksToLoad } = await import('/scripts/search-rank.js')
        const { shards, stats } = await (await fetch('/pagefind/shards.json')).json()
        const base = '/pagefind/' + shards[0] + '/'
        const pagefind = await import(base + 'pagefind.js')
        await pagefind.options({ basePath: base })
        await pagefind.init()
        const index = await openSearch('/pagefind/')
        const out = []
        for (const q of ${JSON.stringify(queries())}) {
          const ours = await index.search(q)
          const shown = await ours.top(20)
          for (const first of chunksToLoad(stats[shards[0]].chunks, ours.stems)) await pagefind.preload(first)
          const theirs = await pagefind.search(q)
          const urls = await Promise.all(
            // All of them: title matches rank first here, where Pagefind only boosts them.
            theirs.results.map(async (r) => {
              const data = await r.data()
              return [data.url, r.score, data.excerpt]
            }),
          )
          out.push({
            q,
            ours: shown.map((d, i) => [d.url, ours.ranked[i].score, d.excerpt]),
            total: ours.total,
            theirs: urls,
            theirTotal: theirs.results.length,
          })
        }
        return out
      })()`)) as Array<{
        q: string
        ours: Array<[string, number, string]>
        total: number
        theirs: Array<[string, number, string]>
        theirTotal: number
      }>
      expect(problems).toEqual([])
      for (const { q, ours, total, theirs, theirTotal } of compared) {
        expect(total, q).toBe(theirTotal)
        expect(ours.length, q).toBeGreaterThan(0)
        const their = new Map(theirs.map(([url, score, excerpt]) => [url, { score, excerpt }]))
        for (const [url, score, excerpt] of ours) {
          // Pagefind computes in 32-bit floats.
          expect(their.get(url)?.score, `${q}: ${url}`).toBeCloseTo(score, 4)
          // The excerpt Pagefind cuts, from the places the build wrote per page.
          expect(excerpt, `${q}: ${url}`).toBe(their.get(url)?.excerpt)
        }
      }
    } finally {
      await context.close()
    }
  })

  it.each(['qwertyuiop', 'qwertyuiop nugan', 'kaqwertyuiop'])(
    'finds nothing for gibberish (%s) and says so',
    { timeout: 60_000 },
    async (q) => {
      for (const name of ['one', 'eight'] as const) {
        const { status, links, context } = await search(name, q)
        await context.close()
        expect(links, name).toEqual([])
        expect(status, name).toMatch(/^No article contains/)
      }
    },
  )

  it('shows math in excerpts as readers see it, not as TeX', { timeout: 60_000 }, async () => {
    const { excerpts, context } = await search('eight', 'cost grows')
    await context.close()
    expect(excerpts.length).toBeGreaterThan(0)
    expect(excerpts.some((e) => e.includes('O(n log n)'))).toBe(true)
    for (const e of excerpts) expect(e).not.toMatch(/\\[a-z]+|\$/)
  })

  it('cuts the excerpt from the text, never running the title into it; title matches first', {
    timeout: 120_000,
  }, async () => {
    let textOnly = 0
    for (const q of queries().slice(0, 7)) {
      const { page, context } = await search('eight', q)
      try {
        const shown = await page
          .locator('#site-search-results .result')
          .evaluateAll((items) =>
            items.map((li) => [
              li.querySelector('.result-title')!.textContent!,
              li.querySelector('.result-desc')!.textContent!,
            ]),
          )
        expect(shown.length, q).toBeGreaterThan(0)
        // The title is a heading of its own: the excerpt is description and body only.
        for (const [title, excerpt] of shown) expect(excerpt, title).not.toContain(title)
        // Still searched in its metadata field, where a match ranks above any in the text alone
        // (a term matches the words it starts: "vofa" finds "vofagan").
        const inTitle = shown.map(([title]) =>
          title!
            .toLowerCase()
            .split(/\W+/)
            .some((w) => w.startsWith(q)),
        )
        expect(inTitle[0], q).toBe(true)
        const firstElsewhere = inTitle.indexOf(false)
        if (firstElsewhere >= 0) textOnly++
        expect(firstElsewhere < 0 || inTitle.lastIndexOf(true) < firstElsewhere, q).toBe(true)
      } finally {
        await context.close()
      }
    }
    // Some query showed both kinds, or the order was not tested.
    expect(textOnly).toBeGreaterThan(0)
  })

  it('sets each title apart from its excerpt', { timeout: 60_000 }, async () => {
    const { page, context } = await search('eight', 'cost grows')
    try {
      const boxes = await page.locator('#site-search-results .result').evaluateAll((items) =>
        items.slice(0, 5).map((li) => {
          const title = li.querySelector('.result-title')!.getBoundingClientRect()
          const excerpt = li.querySelector('.result-desc')!.getBoundingClientRect()
          return { titleBottom: title.bottom, excerptTop: excerpt.top }
        }),
      )
      expect(boxes.length).toBeGreaterThan(0)
      // The excerpt starts below its title, with space between them.
      for (const b of boxes) expect(b.excerptTop - b.titleBottom).toBeGreaterThanOrEqual(2)
    } finally {
      await context.close()
    }
  })
})
