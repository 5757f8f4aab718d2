import { Cite } from '@citation-js/core'
import '@citation-js/plugin-bibtex'
import '@citation-js/plugin-csl'
import { beforeAll, describe, expect, it } from 'vitest'
import { Frontmatter, doiUrl } from '../../model/article.ts'
import { articleCitation, bibtexEntry, citedWork, cslJson } from '../../scripts/builder/citation/index.ts'
import { apaCitation } from '../../scripts/builder/citation/apa.ts'
import { splitName } from '../../scripts/builder/citation/names.ts'
import { parseArticle, type ArticleMeta } from '../../scripts/builder/content.ts'
import type { BuildProblem } from '../../scripts/builder/errors.ts'
import { HOSTILE } from '../support/citation-articles.ts'

const BASE = 'https://research.example.org'

const names = (a: ArticleMeta) =>
  a.authors.map((p) => splitName(collapse(p.name))).map((n) => (n.given ? n : { family: n.family }))

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim()
/** citeproc prints typographic quotes; ours are as written. */
const straightQuotes = (s: string) => s.replace(/[“”]/g, '"').replace(/[‘’]/g, "'")

describe('names', () => {
  it.each([
    ['Jonas Lindqvist', { family: 'Lindqvist', given: 'Jonas' }],
    ['Ludwig van Beethoven', { family: 'van Beethoven', given: 'Ludwig' }],
    ['Jean de la Fontaine', { family: 'de la Fontaine', given: 'Jean' }],
    ['Lindqvist, Jonas', { family: 'Lindqvist', given: 'Jonas' }],
    ['Mary Ann O’Brien', { family: 'O’Brien', given: 'Mary Ann' }],
    ['Plato', { family: 'Plato' }],
  ])('reads %s as BibTeX would', (name, parts) => {
    expect(splitName(name)).toEqual(parts)
  })
})

describe('the BibTeX twin', () => {
  it.each(HOSTILE.map((a) => [a.slug, a] as const))(
    '%s reads back with citation-js as the article it came from',
    (_slug, a) => {
      const work = citedWork(a, BASE)
      const parsed = (new Cite(bibtexEntry(work)).data as Array<Record<string, unknown>>)[0]!
      expect(parsed).toMatchObject({
        id: a.slug,
        type: 'article-journal',
        title: collapse(a.title),
        'container-title': 'Lattice Research',
        issued: { 'date-parts': [[2025, 7, 9]] },
        URL: `${BASE}/posts/${a.slug}`,
        abstract: collapse(a.description),
      })
      expect(parsed.author).toEqual(names(a))
      expect(parsed.DOI).toBe(a.doi)
      if (a.tags.length) expect(parsed.keyword).toBe(a.tags.join(','))
    },
  )

  it('is one entry keyed by the slug, with balanced braces whatever the title', () => {
    for (const a of HOSTILE) {
      const bib = bibtexEntry(citedWork(a, BASE))
      expect(bib.startsWith(`@article{${a.slug},\n`)).toBe(true)
      let depth = 0
      for (const [i, c] of [...bib].entries()) {
        if (c === '{' && bib[i - 1] !== '\\') depth++
        if (c === '}' && bib[i - 1] !== '\\') depth--
        expect(depth).toBeGreaterThanOrEqual(0)
      }
      expect(depth).toBe(0)
      expect(new Cite(bib).data).toHaveLength(1)
    }
  })
})

describe('the CSL-JSON twin', () => {
  it.each(HOSTILE.map((a) => [a.slug, a] as const))(
    '%s is valid CSL that citation-js reads as the BibTeX twin',
    (_slug, a) => {
      const work = citedWork(a, BASE)
      const fromCsl = new Cite(JSON.parse(cslJson(work))).data as Array<Record<string, unknown>>
      const fromBib = new Cite(bibtexEntry(work)).data as Array<Record<string, unknown>>
      const fields = ['id', 'type', 'title', 'container-title', 'author', 'issued', 'URL', 'DOI', 'abstract']
      const pick = (o: Record<string, unknown>) => Object.fromEntries(fields.map((f) => [f, o[f]]))
      expect(pick(fromCsl[0]!)).toEqual(pick(fromBib[0]!))
    },
  )
})

describe('the text citation', () => {
  // citeproc compiles the APA style on its first use: seconds, once, outside each test's budget.
  beforeAll(() => {
    new Cite([{ id: 'warm-up', type: 'article-journal', title: 'T' }]).format('bibliography', {
      format: 'text',
      template: 'apa',
      lang: 'en-US',
    })
  }, 120_000)

  it.each(HOSTILE.map((a) => [a.slug, a] as const))("%s matches citeproc's APA style", (_slug, a) => {
    const work = citedWork(a, BASE)
    const apa = new Cite(JSON.parse(cslJson(work))).format('bibliography', {
      format: 'text',
      template: 'apa',
      lang: 'en-US',
    }) as string
    // citeproc prints a DOI as written, where ours is percent-encoded for a URL.
    const ours = a.doi
      ? apaCitation(work).text.replace(doiUrl(a.doi), `https://doi.org/${a.doi}`)
      : apaCitation(work).text
    expect(straightQuotes(collapse(ours))).toBe(straightQuotes(collapse(apa)))
  })

  it('links the DOI when there is one, the page otherwise', () => {
    expect(apaCitation(citedWork(HOSTILE[8]!, BASE)).text).toBe(
      'Sartre, J.-P. (2025). Being and Nothingness. Lattice Research. https://doi.org/10.5555/12345678',
    )
    expect(apaCitation(citedWork(HOSTILE[5]!, BASE)).text).toBe(
      `Plato. (2025). Why p99? Lattice Research. ${BASE}/posts/question`,
    )
  })

  it('is escaped HTML with the journal in italics', () => {
    const { html } = apaCitation(citedWork(HOSTILE[2]!, BASE))
    expect(html).toBe(
      `van Beethoven, L. (2025). &lt;script&gt;alert(1)&lt;/script&gt; ` +
        `in a title. <i>Lattice Research</i>. ${BASE}/posts/script`,
    )
  })
})

describe('the page parts', () => {
  const decode = (s: string) =>
    s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!)

  it('writes Highwire tags whose content reads back as the metadata, whatever it holds', () => {
    for (const a of HOSTILE) {
      const tags = articleCitation(a, BASE).metaTags.match(/<meta [^>]*>/g)!
      const values = new Map<string, string>()
      for (const tag of tags) {
        const m = /^<meta name="(citation_\w+)" content="([^"<>]*)">$/.exec(tag)
        expect(m, tag).not.toBeNull()
        values.set(m![1]!, decode(m![2]!))
      }
      expect(values.get('citation_title')).toBe(collapse(a.title))
      expect(values.get('citation_publication_date')).toBe('2025/07/09')
      expect(values.get('citation_journal_title')).toBe('Lattice Research')
      expect(values.get('citation_fulltext_html_url')).toBe(`${BASE}/posts/${a.slug}`)
      expect(values.get('citation_doi')).toBe(a.doi)
      if (a.authors.length > 1) continue
      const n = splitName(collapse(a.author))
      expect(values.get('citation_author')).toBe(n.given ? `${n.family}, ${n.given}` : n.family)
    }
  })

  it('writes one citation_author per author in order, each followed by their institution and ORCID', () => {
    const a = HOSTILE.find((x) => x.slug === 'three-authors')!
    const tags = [...articleCitation(a, BASE).metaTags.matchAll(/<meta name="(citation_\w+)" content="([^"]*)">/g)]
    const byline = tags
      .filter(([, name]) => name!.startsWith('citation_author'))
      .map(([, name, content]) => `${name}=${decode(content!)}`)
    expect(byline).toEqual([
      'citation_author=Lovelace, Ada',
      'citation_author_institution=Analytical Engines & Co',
      'citation_author_orcid=https://orcid.org/0000-0002-1825-0097',
      'citation_author=Babbage, Charles',
      'citation_author=de la Fontaine, Jean',
      'citation_author_institution=Académie française',
    ])
    const names = tags.map(([, name]) => name)
    expect(names).toContain('citation_abstract_html_url')
    expect(names).not.toContain('citation_pdf_url')
  })

  it('names every author in BibTeX, CSL-JSON and APA, with the licence in CSL-JSON', () => {
    const a = HOSTILE.find((x) => x.slug === 'three-authors')!
    const work = citedWork(a, BASE)
    expect(bibtexEntry(work)).toContain('author = {Lovelace, Ada and Babbage, Charles and {de la Fontaine}, Jean},')
    const csl = JSON.parse(cslJson(work))[0]
    expect(csl.author).toHaveLength(3)
    expect(csl.license).toBe('https://creativecommons.org/licenses/by/4.0/')
    expect(apaCitation(work).text).toMatch(/^Lovelace, A\., Babbage, C\., & de la Fontaine, J\. \(2025\)/)
  })

  it('shows the DOI as a doi.org link, encoded for a URL and escaped for HTML', () => {
    const sici = HOSTILE[9]!
    expect(articleCitation(sici, BASE).doiLine).toBe(
      `<p class="cite-doi">DOI: <a ` +
        `href="https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O">` +
        `10.1002/(SICI)1097-4571(199806)49:8` +
        `&lt;693::AID-ASI4&gt;3.0.CO;2-O</a></p>`,
    )
    expect(doiUrl('10.1000.10/a%b#c"d&e')).toBe('https://doi.org/10.1000.10/a%25b%23c%22d&e')
    expect(articleCitation(HOSTILE[0]!, BASE).doiLine).toBe('')
  })

  it('escapes the BibTeX entry for the page', () => {
    const { bibtexHtml, bibtex } = articleCitation(HOSTILE[2]!, BASE)
    expect(bibtexHtml).not.toContain('<script>')
    expect(decode(bibtexHtml)).toBe(bibtex)
  })
})

describe('the doi field', () => {
  const front = (doi: unknown) => ({ title: 't', description: 'd', date: '2025-01-01', author: 'a', doi })
  const problemsOf = (doi: string) => {
    const problems: BuildProblem[] = []
    const source = `---\ntitle: "T"\ndescription: "D"\ndate: 2025-01-01\nauthor: "A"\ndoi: ${doi}\n---\nBody\n`
    parseArticle({ slug: 'x', file: 'x.md', hash: 'h', source }, problems)
    return problems
  }

  it.each([
    '10.5555/12345678',
    '10.1000.10/x',
    '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O',
    '10.12345/ÄÖ-ü',
  ])('accepts %s', (doi) => {
    expect(Frontmatter.safeParse(front(doi)).success).toBe(true)
  })

  it.each([
    'https://doi.org/10.5555/1',
    'doi:10.5555/1',
    '10.55/1',
    '11.5555/1',
    '10.5555/',
    '10.5555/a b',
    '10.5555/{x}',
    '10.5555/a\\b',
    '10.5555',
  ])('refuses %s, naming the file, the field and the fix', (doi) => {
    const problems = problemsOf(JSON.stringify(doi))
    expect(problems).toEqual([
      {
        file: 'x.md',
        field: 'doi',
        message: expect.stringMatching(/^doi must /),
        fix: expect.stringContaining('like "doi: 10.5555/12345678"'),
      },
    ])
  })

  it('says a link is not a DOI', () => {
    expect(problemsOf('https://doi.org/10.5555/1')[0]!.message).toContain('not a link')
  })

  it('refuses a DOI the YAML reads as a number', () => {
    expect(problemsOf('10.5555')).toEqual([
      expect.objectContaining({ field: 'doi', message: expect.stringContaining('10.5555/12345678') }),
    ])
  })

  it('is carried into the article metadata', () => {
    const problems: BuildProblem[] = []
    const source = '---\ntitle: "T"\ndescription: "D"\ndate: 2025-01-01\nauthor: "A"\ndoi: " 10.5555/abc "\n---\nBody\n'
    expect(parseArticle({ slug: 'x', file: 'x.md', hash: 'h', source }, problems)).toMatchObject({ doi: '10.5555/abc' })
    expect(problems).toEqual([])
  })
})
