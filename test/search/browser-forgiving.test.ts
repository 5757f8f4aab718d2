import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openWatched, serveSite } from '../support/browser.ts'
import { distOf } from '../support/index.ts'

/**
 * The site's search page on the shipped sample articles, as issue 39 tried it: hyphenated words
 * by their parts and whole, title matches first, and excerpts that never run the title in.
 */
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

/** The titles and excerpts the page shows for `q`, in order. */
async function shown(q: string): Promise<Array<{ title: string; excerpt: string }>> {
  return (await searched(q)).results
}

/** What the page shows for `q` (`typed`: as typed, not corrected): its status line and results. */
async function searched(
  q: string,
  typed = false,
): Promise<{ status: string; asTyped: string | null; results: Array<{ title: string; excerpt: string }> }> {
  const context = await browser.newContext()
  try {
    const address = `${site.origin}/search?q=${encodeURIComponent(q)}${typed ? '&typed' : ''}`
    const { page, problems } = await openWatched(context, address)
    const status = page.locator('#site-search-status')
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/match|No article/)
    const results = await page.locator('#site-search-results .result').evaluateAll((items) =>
      items.map((li) => ({
        title: li.querySelector('.result-title')!.textContent!,
        excerpt: li.querySelector('.result-desc')!.textContent!,
      })),
    )
    expect(problems).toEqual([])
    const link = page.locator('#site-search-status a.search-as-typed')
    const asTyped = (await link.count()) ? await link.getAttribute('href') : null
    return { status: (await status.textContent())!, asTyped, results }
  } finally {
    await context.close()
  }
}

describe('the site search on the sample articles', () => {
  it.each(['tinylfu', 'w-tinylfu', 'wtinylfu', 'w tinylfu'])('%s finds W-TinyLFU', { timeout: 60_000 }, async (q) => {
    expect((await shown(q))[0]?.title).toMatch(/W-TinyLFU/)
  })

  it('ranks the articles titled with the word above those that only mention it', { timeout: 60_000 }, async () => {
    // Pagefind stems "replication" to "replic", which "Replicas" and "Replicating" start too.
    const titled = (await shown('replication')).map((r) => /\breplic/i.test(r.title))
    expect(titled.slice(0, 3)).toEqual([true, true, true])
    expect(titled.indexOf(false)).toBeGreaterThan(titled.lastIndexOf(true))
    expect((await shown('replication')).slice(0, 3).map((r) => r.title)).toContainEqual(
      expect.stringMatching(/A Replication$/),
    )
  })

  it('matches a quoted phrase as a phrase', { timeout: 60_000 }, async () => {
    const title = 'Rate Limiting with Token Buckets Across Replicas'
    expect((await shown('"one shared bucket"')).map((r) => r.title)).toEqual([title])
    // The same words, out of order: found as words, not as a phrase.
    expect((await shown('bucket shared one')).map((r) => r.title)).toContain(title)
    expect(await shown('"bucket shared one"')).toEqual([])
  })

  it('never runs the title into the excerpt', { timeout: 60_000 }, async () => {
    const results = await shown('replicas')
    const bucket = results.find((r) => r.title.includes('Token Buckets Across Replicas'))
    expect(bucket).toBeDefined()
    expect(bucket!.excerpt).not.toContain('Replicas')
    expect(bucket!.excerpt).not.toMatch(/[a-z][A-Z]/)
  })

  it('shows whole sentences around the match, an ellipsis only where one is cut', { timeout: 60_000 }, async () => {
    const results = await shown('replicas')
    expect(results.length).toBeGreaterThan(0)
    for (const { excerpt } of results) {
      // It starts a sentence (a capital, a digit, a quote or bracket) or says it was cut.
      expect(excerpt).toMatch(/^(… |["“([]?[\p{Lu}\d`])/u)
      // It ends a sentence or says it was cut.
      expect(excerpt).toMatch(/([.!?…]["”’)\]]*|…)$/u)
    }
  })

  it.each([
    ['evicton', 'eviction'],
    ['cardinalty', 'cardinality'],
    ['replicaton', 'replication'],
  ])('corrects %s to %s, and links to the search as typed', { timeout: 60_000 }, async (typo, word) => {
    const { status, asTyped, results } = await searched(typo)
    expect(status).toMatch(
      new RegExp(`^Showing results for ${word}\\. Search for “?${typo}”? instead\\. \\d+ articles? match`),
    )
    expect(results.length).toBeGreaterThan(0)
    expect(new URL(asTyped!).searchParams.get('q')).toBe(typo)
    expect(new URL(asTyped!).searchParams.has('typed')).toBe(true)
    const typed = await searched(typo, true)
    expect(typed.results).toEqual([])
    expect(typed.status).toMatch(/^No article contains/)
  })

  it('corrects only the misspelt word of several, beside one matched as typed', { timeout: 60_000 }, async () => {
    const { status, results } = await searched('skewed evicton')
    expect(status).toMatch(/^Showing results for skewed eviction\. Search for “?skewed evicton”? instead\./)
    expect(results.map((r) => r.title)).toContainEqual(expect.stringMatching(/Eviction Under Skew/))
  })

  it.each(['qwertyuiop', 'zzxqv'])(
    'finds nothing for gibberish (%s), corrected or not',
    { timeout: 60_000 },
    async (q) => {
      const { status, results } = await searched(q)
      expect(results).toEqual([])
      expect(status).toMatch(/^No article contains/)
    },
  )

  it('corrects no word that matches as typed, nor a word of four letters', { timeout: 60_000 }, async () => {
    expect((await searched('eviction')).status).toMatch(/^\d+ articles? match/)
    expect((await searched('cahe')).status).toMatch(/^No article contains/)
  })

  it.each([
    ['cafe', 'café'],
    ['eleve', 'élève'],
  ])('folds diacritics both ways: %s and %s find the same articles', { timeout: 60_000 }, async (plain, marked) => {
    const titles = async (q: string) => (await shown(q)).map((r) => r.title).sort()
    const found = await titles(plain)
    expect(found.length).toBeGreaterThan(0)
    expect(await titles(marked)).toEqual(found)
  })
})
