import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { build } from '../../scripts/build.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { launchChromium, openWatched, serveSite } from '../support/browser.ts'
import { tempDir } from '../support/temp.ts'

/**
 * An edit's delta shard (scripts/builder/search-delta.ts) in Chromium: the edited article's new
 * words find it, its old words no longer do, in ranked and in phrase searches; and the index
 * answers as an index built from scratch of the same articles does.
 */
const tmp = tempDir('search-delta-browser')
const content = join(tmp, 'content')
const EDITED = 'article-00021'
const file = join(content, `${EDITED}.md`)
let browser: Browser
const sites: Record<'delta' | 'fresh', Awaited<ReturnType<typeof serveSite>>> = {} as never

beforeAll(async () => {
  generateCorpus(content, 60)
  writeFileSync(file, `${readFileSync(file, 'utf8')}\nQuixotrantic samples were taken twice.\n`)
  const env = { ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content }
  const options = { shardArticles: 10 }
  await build({ ...env, DIST_DIR: join(tmp, 'delta') }, options)
  writeFileSync(file, readFileSync(file, 'utf8').replace('Quixotrantic', 'Flumberwise'))
  await build({ ...env, DIST_DIR: join(tmp, 'delta') }, options)
  // The same articles indexed from scratch (the rendered articles reused).
  cpSync(join(tmp, 'delta', 'cache'), join(tmp, 'fresh', 'cache'), { recursive: true })
  await build({ ...env, DIST_DIR: join(tmp, 'fresh') }, options)
  browser = await launchChromium()
  for (const name of ['delta', 'fresh'] as const)
    sites[name] = await serveSite({ siteDir: join(tmp, name, 'current', 'site') })
}, 300_000)
afterAll(async () => {
  await browser?.close()
  for (const site of Object.values(sites)) await site.close()
})

/** The search page's status line and the links it shows. */
async function search(name: 'delta' | 'fresh', q: string) {
  const context = await browser.newContext()
  try {
    const { page, problems } = await openWatched(context, `${sites[name].origin}/search?q=${encodeURIComponent(q)}`)
    const status = page.locator('#site-search-status')
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/match|No article/)
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

describe('an edit in a delta shard, searched in Chromium', () => {
  it('finds the edited article by its new words and not by its old ones', { timeout: 120_000 }, async () => {
    const { shards } = JSON.parse(
      readFileSync(join(tmp, 'delta', 'current', 'site', 'pagefind', 'shards.json'), 'utf8'),
    )
    expect(shards.at(-1)).toMatch(/^d-/)
    for (const q of ['flumberwise', '"flumberwise samples"']) {
      const found = await search('delta', q)
      expect(
        found.links.map((l) =>
          l
            ?.replace(/\.html$/, '')
            .split('/')
            .pop(),
        ),
        q,
      ).toEqual([EDITED])
    }
    for (const q of ['quixotrantic', '"quixotrantic samples"']) {
      const found = await search('delta', q)
      expect(found.links, q).toEqual([])
      expect(found.status, q).toMatch(/No article/)
    }
  })

  it('ranks as the same articles indexed from scratch', { timeout: 120_000 }, async () => {
    const title = String(/^title: "?(.*?)"?$/m.exec(readFileSync(file, 'utf8'))?.[1])
    const words = title
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length >= 4)
    for (const q of [...words.slice(0, 3), 'samples', 'cost grows']) {
      const [delta, fresh] = [await search('delta', q), await search('fresh', q)]
      expect(delta.status, q).toBe(fresh.status)
      expect(delta.links, q).toEqual(fresh.links)
    }
  })
})
