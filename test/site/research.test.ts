import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { authorPath } from '../../model/author-address.ts'
import { jsonForScript } from '../../scripts/builder/json-ld.ts'
import { distOf, readIndexedPosts } from '../support/index.ts'
import { siteFile } from '../support/site-file.ts'

/** The shipped multi-author sample: several authors, an ORCID iD, a licence and a correction. */
const SLUG = 'second-chance-eviction-under-skew'
const site = (path: string) => readFileSync(siteFile(join(distOf('shipped'), 'current'), path), 'utf8')
const page = () => site(`posts/${SLUG}.html`)
const head = () => page().slice(0, page().indexOf('</head>'))

const jsonLd = (html: string) => {
  const m = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)
  expect(m).not.toBeNull()
  return JSON.parse(m![1]!) as Record<string, unknown>
}

describe('a research article page', () => {
  it('shows every author in order, each ORCID iD as a link to its page, and affiliations', () => {
    const byline = /<li class="byline">(.*?)<\/li>/.exec(page())![1]!
    const names = [...byline.matchAll(/data-pagefind-filter="author">([^<]*)</g)].map((m) => m[1])
    expect(names).toEqual(['Priya Raman', 'Josiah Carberry', 'Mateo García'])
    const orcid = 'href="https://orcid.org/0000-0002-1825-0097"'
    expect(byline).toContain(`<a class="orcid" ${orcid} aria-label="ORCID iD of Josiah Carberry: 0000-0002-1825-0097">`)
    expect(byline).toContain('<span class="affiliation">(Brown University)</span>')
  })

  it('shows the licence, the corrections and the last change as the modification date', () => {
    const license = '<a rel="license" href="https://creativecommons.org/licenses/by/4.0/">CC-BY-4.0</a>'
    expect(page()).toContain(`<p class="license">Licence: ${license}</p>`)
    expect(page()).toMatch(/<h2 id="article-changes-title">Corrections and updates<\/h2><ol><li>/)
    expect(page()).toContain('<li><time datetime="2025-07-03">3 July 2025</time>: Corrected the cache size')
    // Near the top, the last correction's date, linking to the corrections.
    expect(page()).toContain(
      '<li class="corrected"><a href="#article-changes-title">' +
        'Corrected on <time datetime="2025-07-03">3 July 2025</time></a></li>',
    )
    const entry = readIndexedPosts(distOf('shipped')).find((e) => e.slug === SLUG)!
    expect(entry.lastModified).toBe('2025-07-03T00:00:00.000Z')
    expect(entry.author).toBe('Priya Raman, Josiah Carberry and Mateo García')
    expect(site('sitemap-0.xml')).toContain(`/posts/${SLUG}</loc><lastmod>2025-07-03T00:00:00.000Z</lastmod>`)
    expect(site(`posts/${SLUG}.md`)).toContain('- Changed 2025-07-03: Corrected the cache size')
  })

  it('gives Google Scholar one citation_author per author with institution and ORCID after each', () => {
    const tags = [...head().matchAll(/<meta name="(citation_author\w*)" content="([^"]*)">/g)].map(
      (m) => `${m[1]}=${m[2]}`,
    )
    expect(tags).toEqual([
      'citation_author=Raman, Priya',
      'citation_author_institution=Lattice Research',
      'citation_author=Carberry, Josiah',
      'citation_author_institution=Brown University',
      'citation_author_orcid=https://orcid.org/0000-0002-1825-0097',
      'citation_author=García, Mateo',
    ])
    expect(head()).toContain('<meta name="citation_doi" content="10.5555/lattice.2025.eviction">')
    expect(head()).toContain('<meta name="citation_journal_title" content="Lattice Research">')
    expect(head()).not.toContain('citation_pdf_url')
  })

  it('lists every author in order in the RIS twin, with the DOI and the licence', () => {
    const lines = site(`posts/${SLUG}.ris`).split('\r\n')
    expect(lines.filter((l) => /^(AU|DO|N1) /.test(l))).toEqual([
      'AU  - Raman, Priya',
      'AU  - Carberry, Josiah',
      'AU  - García, Mateo',
      'DO  - 10.5555/lattice.2025.eviction',
      'N1  - Licence: CC-BY-4.0, https://creativecommons.org/licenses/by/4.0/',
    ])
  })

  it('describes itself as a schema.org ScholarlyArticle in JSON-LD', () => {
    const doc = jsonLd(head())
    expect(doc).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ScholarlyArticle',
      headline: 'Second-Chance Eviction Under Skewed Workloads: A Replication',
      datePublished: '2025-06-12',
      dateModified: '2025-07-03T00:00:00.000Z',
      identifier: { '@type': 'PropertyValue', propertyID: 'DOI', value: '10.5555/lattice.2025.eviction' },
      sameAs: 'https://doi.org/10.5555/lattice.2025.eviction',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      publisher: { '@type': 'Organization', name: 'Lattice Research' },
      isAccessibleForFree: true,
    })
    expect(doc.author).toEqual([
      {
        '@type': 'Person',
        name: 'Priya Raman',
        url: 'http://localhost:4321/authors/priya-raman',
        affiliation: { '@type': 'Organization', name: 'Lattice Research' },
      },
      {
        '@type': 'Person',
        '@id': 'https://orcid.org/0000-0002-1825-0097',
        name: 'Josiah Carberry',
        url: 'http://localhost:4321/authors/0000-0002-1825-0097',
        affiliation: { '@type': 'Organization', name: 'Brown University' },
      },
      { '@type': 'Person', name: 'Mateo García', url: 'http://localhost:4321/authors/mateo-garcia' },
    ])
  })

  it('keeps JSON-LD inside its script element whatever the text holds', () => {
    const hostile = { headline: '</script><script>alert(1)</script> <!-- & \u2028' }
    const text = jsonForScript(hostile)
    expect(text).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(text)).toEqual(hostile)
  })

  it('keeps a one-author article as it was: one author, the site licence, no corrections section', () => {
    const other = readIndexedPosts(distOf('shipped')).find((e) => e.slug !== SLUG && !e.authors?.[1])!
    const html = site(`posts/${other.slug}.html`)
    expect(/<li class="byline">(.*?)<\/li>/.exec(html)![1]).toContain(`>${other.author}</a>`)
    expect(html).not.toContain('Corrections and updates')
    expect(jsonLd(html).author).toEqual([
      { '@type': 'Person', name: other.author, url: `http://localhost:4321${authorPath({ name: other.author })}` },
    ])
  })
})
