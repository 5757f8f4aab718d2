import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'

/** The shipped multi-author sample: a DOI, an ORCID iD and a licence. */
const SLUG = 'second-chance-eviction-under-skew'
const BASE = 'http://localhost:4321'
/** The tag set the JATS file follows, the profile of its describedby link. */
const JATS = 'https://jats.nlm.nih.gov/archiving/1.4/'
const siteDir = join(distOf('shipped'), 'current', 'site')
// Served for the origin the build was made for, as a server serves only such a build.
const app = createApp({ ...(await testDeps()), siteDir, baseUrl: BASE })

/** A Link header read back per RFC 8288 §3: each link's target and parameters. */
function parseLinks(header: string | undefined): Array<Record<string, string>> {
  expect(header).toBeDefined()
  return [...header!.matchAll(/<([^>]*)>((?:\s*;\s*[a-z]+="[^"]*")*)/g)].map((m) => ({
    href: m[1]!,
    ...Object.fromEntries([...m[2]!.matchAll(/([a-z]+)="([^"]*)"/g)].map((p) => [p[1]!, p[2]!])),
  }))
}

/** The page's <link> elements with the Signposting relation types, in order. */
const SIGNPOST_RELS = new Set(['cite-as', 'author', 'license', 'describedby', 'item', 'type', 'linkset'])
function linkElements(html: string): Array<Record<string, string>> {
  return [...html.matchAll(/<link ([^>]*)>/g)]
    .map((m) => Object.fromEntries([...m[1]!.matchAll(/([a-z]+)="([^"]*)"/g)].map((p) => [p[1]!, p[2]!])))
    .filter((l) => SIGNPOST_RELS.has(l.rel!))
    .map(({ rel, href, type }) => ({ href: href!, rel: rel!, ...(type ? { type } : {}) }))
}

describe('FAIR Signposting under npm start', () => {
  it('sends the level 1 links of an article page in its Link header', async () => {
    const res = await request(app).get(`/posts/${SLUG}`)
    expect(res.status).toBe(200)
    expect(parseLinks(res.headers.link)).toEqual([
      { href: 'https://doi.org/10.5555/lattice.2025.eviction', rel: 'cite-as' },
      { href: 'https://orcid.org/0000-0002-1825-0097', rel: 'author' },
      { href: 'https://creativecommons.org/licenses/by/4.0/', rel: 'license' },
      { href: `${BASE}/posts/${SLUG}.bib`, rel: 'describedby', type: 'application/x-bibtex' },
      { href: `${BASE}/posts/${SLUG}.csl.json`, rel: 'describedby', type: 'application/vnd.citationstyles.csl+json' },
      { href: `${BASE}/posts/${SLUG}.ris`, rel: 'describedby', type: 'application/x-research-info-systems' },
      { href: `${BASE}/posts/${SLUG}.jats.xml`, rel: 'describedby', type: 'application/xml', profile: JATS },
      {
        href: `${BASE}/posts/${SLUG}.crossref.xml`,
        rel: 'describedby',
        type: 'application/vnd.crossref.deposit+xml',
      },
      { href: `${BASE}/posts/${SLUG}.md`, rel: 'item', type: 'text/markdown' },
      { href: 'https://schema.org/AboutPage', rel: 'type' },
      { href: 'https://schema.org/ScholarlyArticle', rel: 'type' },
      { href: `${BASE}/posts/${SLUG}.linkset.json`, rel: 'linkset', type: 'application/linkset+json' },
      { href: `${BASE}/posts/${SLUG}.linkset`, rel: 'linkset', type: 'application/linkset' },
    ])
  })

  it('gives the page the same links as <link> elements (HTML has no profile attribute)', async () => {
    const res = await request(app).get(`/posts/${SLUG}`)
    expect(linkElements(res.text)).toEqual(parseLinks(res.headers.link).map(({ profile: _, ...l }) => l))
  })

  it('cites the page itself when the article has no DOI, and every described document resolves', async () => {
    const res = await request(app).get('/posts/consistent-hashing-under-churn')
    const links = parseLinks(res.headers.link)
    expect(links[0]).toEqual({ href: `${BASE}/posts/consistent-hashing-under-churn`, rel: 'cite-as' })
    // No DOI, no Crossref deposit.
    expect(links.some((l) => l.href!.endsWith('.crossref.xml'))).toBe(false)
    expect((await request(app).get('/posts/consistent-hashing-under-churn.crossref.xml')).status).toBe(404)
    for (const l of links.filter((x) => x.rel === 'describedby' || x.rel === 'item')) {
      const doc = await request(app).get(new URL(l.href!).pathname)
      expect(doc.status, l.href).toBe(200)
      expect(doc.headers['content-type'], l.href).toBe(`${l.type}; charset=utf-8`)
    }
  })

  it('links each metadata document back to the page it describes, absolutely', async () => {
    for (const form of ['bib', 'csl.json', 'ris', 'jats.xml', 'crossref.xml']) {
      const res = await request(app).head(`/posts/${SLUG}.${form}`)
      expect(parseLinks(res.headers.link)).toEqual([
        { href: `${BASE}/posts/${SLUG}`, rel: 'describes', type: 'text/html' },
      ])
    }
  })

  it('links the markdown twin back to its landing page (collection), at its address and by Accept', async () => {
    const collection = [{ href: `${BASE}/posts/${SLUG}`, rel: 'collection', type: 'text/html' }]
    const twin = await request(app).get(`/posts/${SLUG}.md`)
    expect(twin.status).toBe(200)
    expect(parseLinks(twin.headers.link)).toEqual(collection)
    const negotiated = await request(app).get(`/posts/${SLUG}`).set('Accept', 'text/markdown')
    expect(negotiated.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(parseLinks(negotiated.headers.link)).toEqual(collection)
  })

  it('serves every link in a linkset, JSON and text (RFC 9264), each under its anchor', async () => {
    const page = await request(app).get(`/posts/${SLUG}`)
    const json = await request(app).get(`/posts/${SLUG}.linkset.json`)
    expect(json.status).toBe(200)
    expect(json.headers['content-type']).toBe('application/linkset+json')
    expect(json.headers['access-control-allow-origin']).toBe('*')
    const contexts = (JSON.parse(json.text) as { linkset: Array<Record<string, unknown>> }).linkset
    expect(contexts.map((c) => c.anchor)).toEqual([
      `${BASE}/posts/${SLUG}`,
      ...['bib', 'csl.json', 'ris', 'jats.xml', 'crossref.xml'].map((f) => `${BASE}/posts/${SLUG}.${f}`),
      `${BASE}/posts/${SLUG}.md`,
    ])
    // The page's context holds what its header holds, but the links to the linksets themselves.
    const inHeader = parseLinks(page.headers.link).filter((l) => l.rel !== 'linkset')
    const flattened = Object.entries(contexts[0]!)
      .filter(([k]) => k !== 'anchor')
      .flatMap(([rel, targets]) => (targets as Array<Record<string, string>>).map((t) => ({ href: t.href, rel, ...t })))
    expect(flattened).toEqual(inHeader)
    expect(contexts[6]).toEqual({
      anchor: `${BASE}/posts/${SLUG}.md`,
      collection: [{ href: `${BASE}/posts/${SLUG}`, type: 'text/html' }],
    })
    const text = await request(app).get(`/posts/${SLUG}.linkset`)
    expect(text.headers['content-type']).toBe('application/linkset')
    const lines = text.text.trimEnd().split(',\n')
    expect(lines.length).toBe(inHeader.length + 6)
    expect(lines[0]).toBe(
      `<https://doi.org/10.5555/lattice.2025.eviction>; rel="cite-as"; anchor="${BASE}/posts/${SLUG}"`,
    )
    expect(lines.at(-1)).toBe(
      `<${BASE}/posts/${SLUG}>; rel="collection"; type="text/html"; anchor="${BASE}/posts/${SLUG}.md"`,
    )
  })

  it('sends no Signposting on other pages, nor on a page that does not exist', async () => {
    expect((await request(app).get('/')).headers.link).toBeUndefined()
    const missing = await request(app).get('/posts/no-such-article')
    expect(missing.status).toBe(404)
    expect(missing.headers.link).toBeUndefined()
  })
})
