import { describe, expect, it } from 'vitest'
import { Frontmatter, indexFields, toPost } from '../../model/article.ts'
import { License, joinNames, licenseUrl, orcidChecksumHolds } from '../../model/research.ts'
import { parseArticle } from '../../scripts/builder/content.ts'
import type { BuildProblem } from '../../scripts/builder/errors.ts'
import { SITE } from '../../site/lib/site.ts'

const parse = (frontmatter: string) => {
  const problems: BuildProblem[] = []
  const source = `---\ntitle: "T"\ndescription: "D"\ndate: 2025-03-14\n${frontmatter}\n---\nBody.\n`
  const meta = parseArticle({ slug: 'an-article', file: 'an-article.md', hash: 'h', source }, problems)
  return { meta, problems }
}

const TWO_AUTHORS = `authors:
  - name: "Ada Lovelace"
    orcid: 0000-0002-1825-0097
    affiliation: "Analytical Engines Ltd"
  - name: "Charles Babbage"`

describe('ORCID iDs', () => {
  it('hold their ISO 7064 MOD 11-2 check digit, X included', () => {
    for (const id of ['0000-0002-1825-0097', '0000-0001-5109-3700', '0000-0002-1694-233X'])
      expect(orcidChecksumHolds(id), id).toBe(true)
    for (const id of ['0000-0002-1825-0098', '0000-0002-1825-0079', '0000-0002-1694-2330'])
      expect(orcidChecksumHolds(id), id).toBe(false)
  })
})

describe('the research front matter', () => {
  it('lists every author in order and joins their names into author', () => {
    const { meta, problems } = parse(TWO_AUTHORS)
    expect(problems).toEqual([])
    expect(meta!.author).toBe('Ada Lovelace and Charles Babbage')
    expect(meta!.authors).toEqual([
      { name: 'Ada Lovelace', orcid: '0000-0002-1825-0097', affiliation: 'Analytical Engines Ltd' },
      { name: 'Charles Babbage' },
    ])
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C')
  })

  it('keeps author working: one person, the site’s licence, no changes', () => {
    const { meta } = parse('author: "Jonas Lindqvist"')
    expect(meta).toMatchObject({ author: 'Jonas Lindqvist', authors: [{ name: 'Jonas Lindqvist' }], changes: [] })
    expect(meta!.license).toBe(SITE.license)
    const post = toPost(indexFields(meta!), 'https://example.org')
    expect(post).toMatchObject({
      author: 'Jonas Lindqvist',
      authors: [{ name: 'Jonas Lindqvist', orcid: null, affiliation: null }],
      license: SITE.license,
      changes: [],
    })
  })

  it('has a site-wide default licence that is an SPDX identifier', () => {
    expect(License.safeParse(SITE.license).success).toBe(true)
    expect(licenseUrl('CC-BY-4.0')).toBe('https://creativecommons.org/licenses/by/4.0/')
    expect(licenseUrl('CC-BY-NC-SA-4.0')).toBe('https://creativecommons.org/licenses/by-nc-sa/4.0/')
    expect(licenseUrl('MIT')).toBe('https://spdx.org/licenses/MIT.html')
  })

  it('makes the last change the modification date when it is later', () => {
    const { meta } = parse(`author: "A"\nlastModified: 2025-04-01\nchanges:
  - date: 2025-03-20
    note: "First."
  - date: 2025-08-01
    note: "Corrected the units in Table 2."`)
    expect(meta!.lastModified).toBe('2025-08-01T00:00:00.000Z')
    const entry = indexFields(meta!)
    expect(entry.lastModified).toBe('2025-08-01T00:00:00.000Z')
    expect(entry.changes).toEqual([
      { date: '2025-03-20', note: 'First.' },
      { date: '2025-08-01', note: 'Corrected the units in Table 2.' },
    ])
  })

  it.each([
    [
      'a bad ORCID check digit',
      'authors:\n  - name: "A"\n    orcid: 0000-0002-1825-0098',
      'authors.0.orcid',
      /check digit/,
    ],
    [
      'an ORCID link to no iD',
      'authors:\n  - name: "A"\n    orcid: https://orcid.org/people/a',
      'authors.0.orcid',
      /not a link/,
    ],
    ['an unknown SPDX id', 'author: "A"\nlicense: CC-BY-9.0', 'license', /not an SPDX identifier/],
    ['a misspelt SPDX id', 'author: "A"\nlicense: cc-by-4.0', 'license', /spelt "CC-BY-4.0"/],
    [
      'a change before the article',
      'author: "A"\nchanges:\n  - date: 2025-01-01\n    note: "x"',
      'changes.0.date',
      /before the article/,
    ],
    [
      'changes out of order',
      'author: "A"\nchanges:\n  - date: 2025-05-01\n    note: "x"\n  - date: 2025-04-01\n    note: "y"',
      'changes.1.date',
      /oldest first/,
    ],
    ['a malformed DOI', 'author: "A"\ndoi: 11.1/x', 'doi', /10\.<registrant>/],
    ['an author naming two people', 'author: "Ada Lovelace and Charles Babbage"', 'author', /several people/],
    ['an author naming two people with &', 'author: "Ada Lovelace & Charles Babbage"', 'author', /several people/],
    ['both author and authors', `author: "A"\n${TWO_AUTHORS}`, 'authors', /not both/],
    ['neither author nor authors', 'tags: []', 'author', /author is required/],
    ['an author without a name', 'authors:\n  - orcid: 0000-0002-1825-0097', 'authors.0.name', /./],
    ['an empty authors list', 'authors: []', 'authors', /./],
  ])('fails the build on %s, naming the file, the field and the fix', (_name, yaml, field, message) => {
    const { meta, problems } = parse(yaml)
    expect(meta).toBeUndefined()
    const problem = problems.find((p) => p.field === field)
    expect(problem, JSON.stringify(problems)).toBeDefined()
    expect(problem!.file).toBe('an-article.md')
    expect(problem!.message).toMatch(message)
    if (field !== 'authors.0.name' && field !== 'authors') expect(problem!.fix).toEqual(expect.any(String))
  })

  it('names an unknown field inside an author by its path, with the fields an author takes', () => {
    const { problems } = parse('authors:\n  - name: "A"\n    orcId: 0000-0002-1825-0097')
    expect(problems).toEqual([
      {
        file: 'an-article.md',
        field: 'authors.0.orcId',
        message: 'unknown field "authors.0.orcId"',
        fix: 'remove it, or use one of: name, orcid, affiliation',
      },
    ])
  })

  it('refuses an unknown key inside an author', () => {
    const r = Frontmatter.safeParse({
      title: 'T',
      description: 'D',
      date: '2025-01-01',
      authors: [{ name: 'A', orcId: 'x' }],
    })
    expect(r.success).toBe(false)
  })
})
