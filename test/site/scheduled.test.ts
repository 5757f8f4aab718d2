import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { articleFile } from '../../model/article-bucket.ts'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { build } from '../../scripts/build.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, siteEnv, startProcess, waitFor, type Running } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const BASE = 'http://localhost:4321'
const SLUG = 'tomorrows-findings'
/** The fixture corpus's articles, all dated in the past. */
const PUBLISHED = 3

/** An article dated `date` (YYYY-MM-DD), with a word no other article has. */
function article(date: string): string {
  return (
    `---\ntitle: "Tomorrow's Findings"\ndescription: "Scheduled for its date."\n` +
    `date: ${date}\nauthor: "Ada Byrne"\ntags: [methodology]\n---\n\nZymurgical results, due later.\n`
  )
}

/** What a build published: its index, pages, feeds, sitemap, llms files and search shards. */
function publishedIn(dist: string) {
  const dir = join(dist, 'current')
  const site = (f: string) => readFileSync(join(dir, 'site', f), 'utf8')
  const shards = JSON.parse(site('pagefind/shards.json')) as { stats: Record<string, { pages: number }> }
  const index = loadIndexFileSync(dir, BASE)
  return {
    index: { size: index.size, has: index.detail(SLUG) !== undefined },
    page: existsSync(articleFile(dir, SLUG, 'page')),
    api: existsSync(articleFile(dir, SLUG, 'json')),
    text: ['index.html', 'rss.xml', 'atom.xml', 'sitemap-0.xml', 'llms.txt', 'llms-full.txt', 'tags/methodology.html']
      .map((f) => (existsSync(join(dir, 'site', f)) ? site(f) : ''))
      .join('\n'),
    searchPages: Object.values(shards.stats).reduce((n, s) => n + s.pages, 0),
    info: JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')) as { nextPublication?: string },
  }
}

describe('an article dated in the future', () => {
  it('is built but published nowhere until its date, which the build names for the next build', async () => {
    const tmp = tempDir('scheduled-build')
    const content = join(tmp, 'content')
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    writeFileSync(join(content, `${SLUG}.md`), article('2099-03-01'))
    const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content }
    await build({ ...env, DIST_DIR: join(tmp, 'dist') })
    const live = publishedIn(join(tmp, 'dist'))
    expect(live.index).toEqual({ size: PUBLISHED, has: false })
    expect({ page: live.page, api: live.api }).toEqual({ page: false, api: false })
    expect(live.text).not.toContain(SLUG)
    expect(live.text).not.toContain('Tomorrow')
    expect(live.searchPages).toBe(PUBLISHED)
    // A calendar date arrives at 00:00 UTC.
    expect(live.info.nextPublication).toBe('2099-03-01T00:00:00.000Z')

    // The preview (SHOW_SCHEDULED) shows it, with a banner saying it is scheduled.
    await build({ ...env, DIST_DIR: join(tmp, 'preview'), SHOW_SCHEDULED: 'true' })
    const preview = publishedIn(join(tmp, 'preview'))
    expect(preview.index).toEqual({ size: PUBLISHED + 1, has: true })
    const page = readFileSync(articleFile(join(tmp, 'preview', 'current'), SLUG, 'page'), 'utf8')
    expect(page).toMatch(
      /<p class="scheduled-banner" role="note"><strong>Scheduled:<\/strong> published on 1 March 2099/,
    )
    // A published article carries no banner.
    const other = readFileSync(articleFile(join(tmp, 'preview', 'current'), 'hashing-rings', 'page'), 'utf8')
    expect(other).not.toContain('scheduled-banner')
  }, 240_000)
})

describe('npm start and a scheduled article', () => {
  const tmp = tempDir('scheduled-start')
  const content = join(tmp, 'content')
  let server: Running | undefined
  let origin: string
  let env: NodeJS.ProcessEnv
  /** 00:00 UTC of the day after the real one: the article's date. */
  const due = new Date(new Date().setUTCHours(24, 0, 0, 0))

  beforeAll(async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    writeFileSync(join(content, `${SLUG}.md`), article(due.toISOString().slice(0, 10)))
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    env = siteEnv(tmp, content, port)
    // Built while the date is a day away (the real clock).
    await build(env)
  }, 240_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('publishes it when its date arrives, without the writer building', async () => {
    // The service's clock (and that of the build it runs) stands 30 s short of the date.
    const offset = due.getTime() - 30_000 - Date.now()
    server = await startProcess('node', ['bin/start.ts'], {
      cwd: ROOT,
      env: { ...env, LATTICE_CLOCK_OFFSET_MS: String(offset) },
      ready: /listening on/,
    })
    expect(server.output()).not.toContain('building the site first')
    expect((await fetch(`${origin}/posts/${SLUG}`)).status).toBe(404)
    expect((await fetch(`${origin}/api/v1/posts/${SLUG}`)).status).toBe(404)
    const before = await (await fetch(`${origin}/api/v1/posts?limit=10`)).json()
    expect(before.posts.map((p: { slug: string }) => p.slug)).not.toContain(SLUG)
    const search = `${origin}/api/v1/search?q=tomorrow`
    const oai = `${origin}/oai?verb=ListIdentifiers&metadataPrefix=oai_dc`
    expect(JSON.stringify(await (await fetch(search)).json())).not.toContain(SLUG)
    expect(await (await fetch(oai)).text()).not.toContain(SLUG)

    const page = await waitFor(
      async () => {
        const res = await fetch(`${origin}/posts/${SLUG}`)
        return res.status === 200 ? res.text() : undefined
      },
      120_000,
      'the scheduled article to be served',
      500,
    )
    expect(page).toContain('Tomorrow')
    expect(page).not.toContain('scheduled-banner')
    expect(server.output()).toContain(`Publishing the articles scheduled for ${due.toISOString().slice(0, 10)}`)
    const newest = await waitFor(
      async () => {
        const body = await (await fetch(`${origin}/api/v1/posts?limit=1`)).json()
        return body.posts[0]?.slug === SLUG ? body.posts[0] : undefined
      },
      10_000,
      'the article first in the API',
    )
    expect(newest.date).toBe(due.toISOString().slice(0, 10))
    expect(JSON.stringify(await (await fetch(search)).json())).toContain(SLUG)
    expect(await (await fetch(oai)).text()).toContain(SLUG)
    // The list pages and feeds land with Astro's output, just after the article's page.
    await waitFor(
      async () => ((await (await fetch(`${origin}/rss.xml`)).text()).includes(`/posts/${SLUG}`) ? true : undefined),
      30_000,
      'the article in the feed',
    )
  }, 200_000)
})
