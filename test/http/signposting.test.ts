import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'

/** The shipped multi-author sample: a DOI, an ORCID iD and a licence. */
const SLUG = 'second-chance-eviction-under-skew'
const BASE = 'http://localhost:4321'
const siteDir = join(distOf('shipped'), 'current', 'site')
const app = createApp({ ...(await testDeps()), siteDir })

/** A Link header read back per RFC 8288 §3: each link's target and parameters. */
function parseLinks(header: string | undefined): Array<Record<string, string>> {
  expect(header).toBeDefined()
  return [...header!.matchAll(/<([^>]*)>((?:\s*;\s*[a-z]+="[^"]*")*)/g)].map((m) => ({
    href: m[1]!,
    ...Object.fromEntries([...m[2]!.matchAll(/([a-z]+)="([^"]*)"/g)].map((p) => [p[1]!, p[2]!])),
  }))
}

/** The page's <link> elements with the Signposting relation types, in order. */
const SIGNPOST_RELS = new Set(['cite-as', 'author', 'license', 'describedby', 'item', 'type'])
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
      { href: `${BASE}/posts/${SLUG}.md`, rel: 'item', type: 'text/markdown' },
      { href: 'https://schema.org/AboutPage', rel: 'type' },
      { href: 'https://schema.org/ScholarlyArticle', rel: 'type' },
    ])
  })

  it('gives the page the same links as <link> elements', async () => {
    const res = await request(app).get(`/posts/${SLUG}`)
    expect(linkElements(res.text)).toEqual(parseLinks(res.headers.link))
  })

  it('cites the page itself when the article has no DOI, and every described document resolves', async () => {
    const res = await request(app).get('/posts/consistent-hashing-under-churn')
    const links = parseLinks(res.headers.link)
    expect(links[0]).toEqual({ href: `${BASE}/posts/consistent-hashing-under-churn`, rel: 'cite-as' })
    for (const l of links.filter((x) => x.rel === 'describedby' || x.rel === 'item')) {
      const doc = await request(app).get(new URL(l.href!).pathname)
      expect(doc.status, l.href).toBe(200)
      expect(doc.headers['content-type'], l.href).toBe(`${l.type}; charset=utf-8`)
    }
  })

  it('links each metadata document back to the page it describes', async () => {
    for (const form of ['bib', 'csl.json', 'ris']) {
      const res = await request(app).head(`/posts/${SLUG}.${form}`)
      expect(parseLinks(res.headers.link)).toEqual([{ href: `/posts/${SLUG}`, rel: 'describes', type: 'text/html' }])
    }
  })

  it('sends no Signposting on other pages, nor on a page that does not exist', async () => {
    expect((await request(app).get('/')).headers.link).toBeUndefined()
    const missing = await request(app).get('/posts/no-such-article')
    expect(missing.status).toBe(404)
    expect(missing.headers.link).toBeUndefined()
  })
})
