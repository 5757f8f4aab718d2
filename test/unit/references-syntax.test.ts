import { describe, expect, it } from 'vitest'
import { scan } from '../../scripts/builder/references/syntax.ts'

const keysOf = (md: string) => scan(md).clusters.map((c) => c.items.map((i) => i.key))

describe('citation syntax (Pandoc)', () => {
  it('reads a cluster, several keys, locators, prefixes and suffixes, in order', () => {
    const { clusters } = scan('A [@knuth84], then [see @knuth84, p. 12; @bloom70, chap. 3, emphasis added].\n')
    expect(clusters).toHaveLength(2)
    expect(clusters[0]).toMatchObject({ kind: 'cite', narrative: false, line: 1, source: '[@knuth84]' })
    expect(clusters[1]!.items).toEqual([
      { key: 'knuth84', prefix: 'see ', suffix: '', locator: '12', label: 'page', suppressAuthor: false },
      { key: 'bloom70', prefix: '', suffix: ', emphasis added', locator: '3', label: 'chapter', suppressAuthor: false },
    ])
  })

  it('reads a bare number as a page, and a suffix that is no locator as a suffix', () => {
    const [a, b] = scan('[@a, 33] [@b, and elsewhere]').clusters
    expect(a!.items[0]).toMatchObject({ locator: '33', label: 'page' })
    expect(b!.items[0]).toMatchObject({ suffix: ', and elsewhere' })
    expect(b!.items[0]!.locator).toBeUndefined()
  })

  it('reads a narrative citation and a year-only one', () => {
    const { clusters } = scan('As @knuth84 showed [-@knuth84].')
    expect(clusters.map((c) => [c.narrative, c.items[0]!.suppressAuthor])).toEqual([
      [true, false],
      [false, true],
    ])
  })

  it('reads a narrative citation’s locator in brackets after it, and no cluster there', () => {
    const { clusters } = scan('As @knuth84 [p. 33] says, and @knuth84 [@bloom70].')
    expect(clusters.map((c) => [c.source, c.items[0]!.locator])).toEqual([
      ['@knuth84 [p. 33]', '33'],
      ['@knuth84', undefined],
      ['[@bloom70]', undefined],
    ])
  })

  it('puts one token where each citation stood, with its line', () => {
    const out = scan('One.\n\nTwo [@a]\nand @b.\n')
    expect(out.markdown).toBe('One.\n\nTwo \u{F0000}c0\u{F0001}\nand \u{F0000}c1\u{F0001}.\n')
    expect(out.clusters.map((c) => c.line)).toEqual([3, 4])
  })

  it.each([
    ['an e-mail address', 'Write to ada@example.org or <ada@example.org>.'],
    ['a metric like nDCG@10', 'We report nDCG@10 and recall@k.'],
    ['a code span', 'Call `cite(@knuth84)` here.'],
    ['a fenced code block', '```\n[@knuth84] @knuth84\n```\n'],
    ['a tilde fence', '~~~python\n@decorator\n~~~\n'],
    ['inline math', 'Let $a@b$ hold.'],
    ['display math', '$$\nx @y\n$$\n'],
    ['an escaped @', 'Escaped \\@knuth84 stays.'],
    ['a raw HTML attribute', '<a href="mailto:@x">x</a>'],
    ['a path in a link', 'See [the page](https://example.org/@handle).'],
    ['an HTML comment', '<!-- @todo -->'],
    ['a link’s text', '[the @knuth84 paper](https://example.org "t")'],
  ])('leaves %s as written', (_what, md) => {
    const out = scan(md)
    expect(out.clusters).toEqual([])
    expect(out.markdown).toBe(md)
  })

  it('keeps a link whose text starts with @ a link', () => {
    expect(scan('[@home](https://example.org)').clusters).toEqual([])
  })

  it('reads a key with internal punctuation, but not a sentence’s full stop', () => {
    expect(keysOf('By @doe:2020.a.')).toEqual([['doe:2020.a']])
  })
})

describe('cross-reference syntax (Quarto)', () => {
  const md = [
    '## Intro {#sec-intro}', // 1
    '',
    'See @fig-a, [@tbl-t], @eq-e and [-@eq-e], and @sec-intro.', // 3
    '',
    '![A *caption*](a.png){#fig-a}', // 5
    '',
    '| a |',
    '|---|',
    '| 1 |',
    '',
    ': The table {#tbl-t}', // 11
    '',
    '$$',
    'E = mc^2',
    '$$ {#eq-e}', // 15
    '',
    '### Sub',
    '',
    '$$ a = b $$ {#eq-f}', // 19
  ].join('\n')

  it('numbers labels in order of appearance, sections by their depth', () => {
    const { labels, headings, problems } = scan(md)
    expect(problems).toEqual([])
    expect([...labels.values()].map((l) => [l.id, l.kind, l.number, l.line])).toEqual([
      ['sec-intro', 'sec', '1', 1],
      ['fig-a', 'fig', '1', 5],
      ['tbl-t', 'tbl', '1', 11],
      ['eq-e', 'eq', '1', 15],
      ['eq-f', 'eq', '2', 19],
    ])
    expect(headings).toEqual(['1', '1.1'])
  })

  it('reads cross-references as their own kind, never as citations', () => {
    const { clusters } = scan(md)
    expect(clusters.every((c) => c.kind === 'ref')).toBe(true)
    expect(clusters.map((c) => c.items[0]!.key)).toEqual(['fig-a', 'tbl-t', 'eq-e', 'eq-e', 'sec-intro'])
  })

  it('leaves no label syntax in the markdown, and numbers equations with \\tag', () => {
    const out = scan(md).markdown
    expect(out).not.toMatch(/\{#|@(fig|tbl|eq|sec)-/)
    expect(out).toContain('E = mc^2 \\tag{1}\n$$')
    expect(out).toContain('a = b \\tag{2}\n$$')
  })

  it('names an unknown label with the nearest one, and a duplicate with its first line', () => {
    const { problems } = scan('![x](a.png){#fig-plot}\n\nSee @fig-plto.\n\n![y](b.png){#fig-plot}\n')
    expect(problems).toEqual([
      { line: 5, first: 1, message: 'the label "fig-plot" is used twice', fix: expect.any(String) },
      {
        line: 3,
        message: 'the cross-reference @fig-plto names no figure, table, equation or section',
        fix: 'did you mean @fig-plot?',
      },
    ])
  })

  it('leaves headings unnumbered when no section is labelled', () => {
    const out = scan('## A\n\n![x](a.png){#fig-a}\n')
    expect(out.headings).toEqual([])
    expect(out.markdown.startsWith('## A\n')).toBe(true)
  })
})
