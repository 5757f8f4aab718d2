import { describe, expect, it } from 'vitest'
import { articleCitation, citedWork, risRecord } from '../../scripts/builder/citation/index.ts'
import { parseArticle, type ArticleMeta } from '../../scripts/builder/content.ts'
import type { BuildProblem } from '../../scripts/builder/errors.ts'

const BASE = 'https://research.example.org'

/** An article as the build reads it from its front matter. */
function parsed(frontMatter: string): ArticleMeta {
  const problems: BuildProblem[] = []
  const source = `---\n${frontMatter}\n---\n\nBody.\n`
  const meta = parseArticle({ slug: 'an-article', file: 'an-article.md', hash: 'h', source }, problems)
  expect(problems).toEqual([])
  return meta!
}

/** A record read back as an importer reads it: CR LF lines, each a tag, two spaces, "- " and the value. */
function readRecord(text: string): Array<[string, string]> {
  expect(text.endsWith('\r\n')).toBe(true)
  const lines = text.slice(0, -2).split('\r\n')
  for (const line of lines)
    expect(line, JSON.stringify(line)).toMatch(/^[A-Z][A-Z0-9] {2}- (?:[^\p{Cc}]*[^\s\p{Cc}])?$/u)
  return lines.map((line) => [line.slice(0, 2), line.slice(6)])
}

describe('the RIS twin', () => {
  it('lists every author in byline order, with the DOI, the tags and the licence', () => {
    const a = parsed(
      [
        'title: "Second-Chance Eviction: A Replication"',
        'description: "CLOCK stays within 1.5 points of LRU."',
        'date: 2025-06-12',
        'authors:',
        '  - name: "Priya Raman"',
        '    affiliation: "Lattice Research"',
        '  - name: "Josiah Carberry"',
        '    orcid: 0000-0002-1825-0097',
        '  - name: "Jean de la Fontaine"',
        'license: CC-BY-SA-4.0',
        'doi: 10.5555/lattice.2025.eviction',
        'tags: [caching, replication]',
      ].join('\n'),
    )
    expect(articleCitation(a, BASE).ris).toBe(
      [
        'TY  - JOUR',
        'TI  - Second-Chance Eviction: A Replication',
        'AU  - Raman, Priya',
        'AU  - Carberry, Josiah',
        'AU  - de la Fontaine, Jean',
        'PY  - 2025',
        'DA  - 2025/06/12',
        'T2  - Lattice Research',
        'JO  - Lattice Research',
        'AB  - CLOCK stays within 1.5 points of LRU.',
        'KW  - caching',
        'KW  - replication',
        'DO  - 10.5555/lattice.2025.eviction',
        `UR  - ${BASE}/posts/an-article`,
        'N1  - Licence: CC-BY-SA-4.0, https://creativecommons.org/licenses/by-sa/4.0/',
        'ER  - ',
        '',
      ].join('\r\n'),
    )
  })

  it('names the one author of an `author` article, with the site licence, and no DOI or keywords', () => {
    const a = parsed('title: "Why p99?"\ndescription: "Tails."\ndate: 2025-01-02\nauthor: "Ludwig van Beethoven"')
    expect(risRecord(citedWork(a, BASE))).toBe(
      [
        'TY  - JOUR',
        'TI  - Why p99?',
        'AU  - van Beethoven, Ludwig',
        'PY  - 2025',
        'DA  - 2025/01/02',
        'T2  - Lattice Research',
        'JO  - Lattice Research',
        'AB  - Tails.',
        `UR  - ${BASE}/posts/an-article`,
        'N1  - Licence: CC-BY-4.0, https://creativecommons.org/licenses/by/4.0/',
        'ER  - ',
        '',
      ].join('\r\n'),
    )
  })

  it('keeps every value on its line: breaks fold to a space, other control characters go', () => {
    // The front matter refuses such text (model/text-rules.ts); the record holds its lines whatever it is given.
    const a = {
      ...parsed('title: "T"\ndescription: "d"\ndate: 2025-01-02\nauthor: "Plato"\ntags: [one]'),
      title: 'Line\nER  - \r\nTY  - BOOK\u2028end',
      description: 'A\tB\u0000C\u001b[31mD\u0085E\u007f',
    }
    const record = readRecord(risRecord(citedWork(a, BASE)))
    expect(record.filter(([tag]) => tag === 'TY' || tag === 'ER')).toEqual([
      ['TY', 'JOUR'],
      ['ER', ''],
    ])
    expect(Object.fromEntries(record)).toMatchObject({
      TI: 'Line ER - TY - BOOK end',
      AU: 'Plato',
      AB: 'A BC[31mDE',
    })
  })

  it('takes the text as written, since RIS escapes nothing', () => {
    const title = `<script>alert("t")</script> {Braces} & 'quotes' $x^2$ 100% a_b ~ \\ Ærø 東京 🧪`
    const a = parsed(
      `title: ${JSON.stringify(title)}\ndescription: "d"\ndate: 2025-01-02\nauthor: "Zoë Ørsted-Ñúñez"\n` +
        'doi: "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"',
    )
    const record = Object.fromEntries(readRecord(risRecord(citedWork(a, BASE))))
    expect(record).toMatchObject({
      TI: title,
      AU: 'Ørsted-Ñúñez, Zoë',
      DO: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O',
    })
  })
})
