import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import type { IndexEntry, Post } from '../../model/article.ts'
import { doiUrl, licenseUrl } from '../../model/article.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { dcValues, readOai, validateOai, type OaiPage } from '../support/oai.ts'

// The shipped sample content (its multi-author article with DOI, licence and a correction), four
// records a page: a harvest of it spans several pages.
const PAGE = 4
const deps = await testDeps({ corpus: 'shipped' })
const app = createApp({ ...deps, oaiPageSize: PAGE })
const posts = (JSON.parse(deps.posts()!.latest(1000).body.toString()) as { posts: Post[] }).posts
const HOST = new URL(BASE_URL).hostname
const idOf = (slug: string) => `oai:${HOST}:${slug}`
const stampOf = (p: Post) => `${p.lastModified.slice(0, 19)}Z`
/** The harvest order: datestamp, then slug. */
const ordered = [...posts].sort((a, b) => stampOf(a).localeCompare(stampOf(b)) || (a.slug < b.slug ? -1 : 1))

/** One request, by GET or as a POSTed form; the answer must be a valid OAI-PMH document. */
async function oai(query: string, method: 'get' | 'post' = 'get'): Promise<OaiPage & { xml: string }> {
  const res =
    method === 'get'
      ? await request(app).get(`/oai?${query}`)
      : await request(app).post('/oai').type('form').send(query)
  expect(res.status).toBe(200)
  expect(res.headers['content-type']).toBe('text/xml; charset=utf-8')
  await validateOai(res.text)
  return { ...readOai(res.text), xml: res.text }
}

/** Follows the resumption tokens of a list to its end; checks cursor and completeListSize on the way. */
async function harvest(verb: string, args: string, method: 'get' | 'post' = 'get') {
  const ids: string[] = []
  const stamps: string[] = []
  let page = await oai(`verb=${verb}&${args}`, method)
  for (let n = 0; ; n++) {
    if (page.error) return { error: page.error, ids, stamps }
    if (page.token) {
      expect(Number(page.token.attributes.cursor)).toBe(ids.length)
      expect(Number(page.token.attributes.completeListSize)).toBeGreaterThan(0)
    }
    ids.push(...page.identifiers)
    stamps.push(...page.datestamps)
    if (!page.token?.value) break
    expect(page.identifiers).toHaveLength(PAGE)
    expect(Date.parse(page.token.attributes.expirationDate!)).toBeGreaterThan(Date.now())
    page = await oai(`verb=${verb}&resumptionToken=${encodeURIComponent(page.token.value)}`, method)
    expect(page.request).toMatchObject({ verb })
    expect(n).toBeLessThan(100)
  }
  if (page.token) expect(Number(page.token.attributes.completeListSize)).toBe(ids.length)
  return { ids, stamps }
}

describe('OAI-PMH at /oai', () => {
  it('identifies the repository: base URL, granularity to the second, earliest datestamp, no deletions', async () => {
    const page = await oai('verb=Identify')
    expect(page.request).toEqual({ verb: 'Identify' })
    expect(page.xml).toContain(`<baseURL>${BASE_URL}/oai</baseURL>`)
    expect(page.xml).toContain('<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>')
    expect(page.xml).toContain('<deletedRecord>no</deletedRecord>')
    expect(page.xml).toContain(`<earliestDatestamp>${stampOf(ordered[0]!)}</earliestDatestamp>`)
    expect(page.xml).toContain(`<adminEmail>webmaster@${HOST}</adminEmail>`)
  })

  it('offers oai_dc for the repository and for each item', async () => {
    for (const query of ['verb=ListMetadataFormats', `verb=ListMetadataFormats&identifier=${idOf(posts[0]!.slug)}`]) {
      const { xml } = await oai(query)
      expect(xml).toContain('<metadataPrefix>oai_dc</metadataPrefix>')
      expect(xml).toContain('<metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace>')
    }
  })

  it('lists the tags as sets', async () => {
    const { xml } = await oai('verb=ListSets')
    const specs = [...xml.matchAll(/<setSpec>([^<]+)<\/setSpec>/g)].map((m) => m[1])
    expect(specs).toEqual([...new Set(posts.flatMap((p) => p.tags))].sort())
  })

  it('gives a record as Dublin Core: every author, the DOI and the page, the licence, the date, each tag', async () => {
    const post = posts.find((p) => p.authors.length > 2 && p.doi && p.changes.length > 0)!
    const { xml, identifiers, datestamps } = await oai(
      `verb=GetRecord&identifier=${idOf(post.slug)}&metadataPrefix=oai_dc`,
    )
    expect(identifiers).toEqual([idOf(post.slug)])
    // The datestamp is the last change, which the build made the article's lastModified.
    expect(datestamps).toEqual([stampOf(post)])
    expect(stampOf(post).slice(0, 10)).toBe(post.changes.at(-1)!.date)
    expect(dcValues(xml, 'creator')).toEqual(post.authors.map((a) => a.name))
    expect(dcValues(xml, 'identifier')).toEqual([doiUrl(post.doi!), `${BASE_URL}/posts/${post.slug}`])
    expect(dcValues(xml, 'rights')).toEqual([licenseUrl(post.license!)])
    expect(dcValues(xml, 'subject')).toEqual(post.tags)
    expect(dcValues(xml, 'date')).toEqual([post.date])
    expect(dcValues(xml, 'title')).toEqual([post.title])
    expect(dcValues(xml, 'description')).toEqual([post.description])
    expect(dcValues(xml, 'publisher')).toEqual(['Lattice Research'])
    expect(dcValues(xml, 'type')).toEqual(['Text'])
    expect(xml).toContain(`<setSpec>${[...post.tags].sort()[0]}</setSpec>`)
  })

  it('harvests every record exactly once, page by page, in datestamp order, by GET and by POST', async () => {
    for (const method of ['get', 'post'] as const)
      for (const verb of ['ListRecords', 'ListIdentifiers']) {
        const { ids, stamps } = await harvest(verb, 'metadataPrefix=oai_dc', method)
        expect(ids, `${method} ${verb}`).toEqual(ordered.map((p) => idOf(p.slug)))
        expect(stamps).toEqual(ordered.map(stampOf))
      }
  })

  it('selects on the last change with from and until, inclusive, to the second or the day', async () => {
    const middle = stampOf(ordered[Math.floor(ordered.length / 2)]!)
    const from = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&from=${middle}`)
    expect(from.ids).toEqual(ordered.filter((p) => stampOf(p) >= middle).map((p) => idOf(p.slug)))
    const until = await harvest('ListRecords', `metadataPrefix=oai_dc&until=${middle}`)
    expect(until.ids).toEqual(ordered.filter((p) => stampOf(p) <= middle).map((p) => idOf(p.slug)))
    // A day covers all of it: until=<day> includes that day's records whatever their time.
    const day = middle.slice(0, 10)
    const days = await harvest('ListIdentifiers', `metadataPrefix=oai_dc&from=${day}&until=${day}`)
    expect(days.ids).toEqual(ordered.filter((p) => stampOf(p).startsWith(day)).map((p) => idOf(p.slug)))
    expect(days.ids.length).toBeGreaterThan(0)
    const none = await harvest('ListRecords', 'metadataPrefix=oai_dc&from=2999-01-01')
    expect(none.error).toBe('noRecordsMatch')
  })

  it('selects a set: the articles with that tag, and from/until within it', async () => {
    const tag = 'performance'
    const inSet = ordered.filter((p) => p.tags.includes(tag))
    expect(inSet.length).toBeGreaterThan(PAGE)
    expect((await harvest('ListRecords', `metadataPrefix=oai_dc&set=${tag}`)).ids).toEqual(
      inSet.map((p) => idOf(p.slug)),
    )
    const since = stampOf(inSet[1]!)
    expect((await harvest('ListIdentifiers', `metadataPrefix=oai_dc&set=${tag}&from=${since}`)).ids).toEqual(
      inSet.slice(1).map((p) => idOf(p.slug)),
    )
    expect((await harvest('ListIdentifiers', 'metadataPrefix=oai_dc&set=no-such-tag')).error).toBe('noRecordsMatch')
  })

  // Twenty paged harvests of the whole set: 15 s under the whole suite on a slow two-core machine.
  it('answers 20 harvests at once with the same records', { timeout: 60_000 }, async () => {
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => harvest(i % 2 ? 'ListRecords' : 'ListIdentifiers', 'metadataPrefix=oai_dc')),
    )
    for (const run of runs) expect(run.ids).toEqual(ordered.map((p) => idOf(p.slug)))
  })
})

describe('OAI-PMH across a rebuild', () => {
  /** `count` articles, one a day, modified in the order of their number. */
  const entries = (count: number, prefix: string, editedDay = 0): IndexEntry[] =>
    Array.from({ length: count }, (_, i) => ({
      slug: `${prefix}-${String(i).padStart(3, '0')}`,
      title: `Study ${i}`,
      description: 'A study.',
      date: '2024-06-01',
      lastModified: new Date(Date.UTC(2025, 0, 1 + i + editedDay)).toISOString(),
      author: 'Ada Lovelace',
      tags: i % 2 ? ['odd'] : [],
      readingMinutes: 1,
      markdown: 'Body.',
    }))

  it('neither repeats nor skips a record that stayed, and brings an edited one at the end', async () => {
    const before = entries(30, 'a')
    let live = createPostIndex(before, BASE_URL)
    const swapping = createApp({ ...deps, posts: () => live, oaiPageSize: 7 })
    const seen: string[] = []
    let page = readOai((await request(swapping).get('/oai?verb=ListIdentifiers&metadataPrefix=oai_dc')).text)
    seen.push(...page.identifiers)
    // After the first page: a-003 (harvested) and a-020 (not yet) are edited, and new articles land.
    const edited = before.map((e) =>
      e.slug === 'a-003' || e.slug === 'a-020' ? { ...e, lastModified: '2026-01-01T00:00:00.000Z' } : e,
    )
    live = createPostIndex([...edited, ...entries(3, 'b', 400)], BASE_URL)
    while (page.token?.value) {
      const res = await request(swapping).get(`/oai?verb=ListIdentifiers&resumptionToken=${page.token.value}`)
      await validateOai(res.text)
      page = readOai(res.text)
      seen.push(...page.identifiers)
    }
    const slugs = seen.map((id) => id.split(':').at(-1))
    const stayed = before.map((e) => e.slug).filter((s) => s !== 'a-003' && s !== 'a-020')
    for (const slug of stayed)
      expect(
        slugs.filter((s) => s === slug),
        slug,
      ).toHaveLength(1)
    // What changed comes at its new datestamp, once (again, if harvested before), and the new ones after it.
    expect(slugs.slice(-5)).toEqual(['a-003', 'a-020', 'b-000', 'b-001', 'b-002'])
    expect(slugs.filter((s) => s === 'a-003')).toHaveLength(2)
  })
})
