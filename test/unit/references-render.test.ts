import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../scripts/builder/render/index.ts'
import type { ReferenceInputs } from '../../scripts/builder/references/index.ts'
import { POSITION_STYLE } from '../support/csl-styles.ts'

const BIB = `@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984}, volume = {27}, number = {2}, pages = {97--111},
  doi = {10.1093/comjnl/27.2.97}
}

@inproceedings{johnson1994,
  author = {Johnson, Theodore and Shasha, Dennis},
  title = {{2Q}: A Low Overhead High Performance Buffer Management Replacement Algorithm},
  booktitle = {Proceedings of the 20th International Conference on Very Large Data Bases},
  year = {1994}, pages = {439--450},
  url = {https://www.vldb.org/conf/1994/P439.PDF}
}
`
const refs = (text = BIB, extra: Partial<ReferenceInputs> = {}): ReferenceInputs => ({
  bibliographies: [{ file: 'refs.bib', text }],
  ...extra,
})
const problemsOf = async (md: string, inputs?: ReferenceInputs) => {
  const error = await renderMarkdown(md, inputs).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(Error)
  return (error as { problems: unknown[] }).problems
}

describe('citations rendered by citeproc (APA 7th by default)', async () => {
  const md = [
    '## Literate programming {#sec-lp}',
    '',
    'As @knuth1984 argued [see @knuth1984, p. 99; @johnson1994], and again [-@knuth1984].',
    'Mail ada@example.org, `@knuth1984` in code.',
    '',
    '![A figure](/f.png){#fig-f}',
    '',
    'See @fig-f and @sec-lp.',
  ].join('\n')
  const out = await renderMarkdown(md, refs())

  it('writes narrative, clustered and year-only citations as the style does', () => {
    expect(out.html).toContain('popovertarget="cite-1">Knuth (1984)</button>')
    expect(out.html).toContain('>(Johnson &#x26; Shasha, 1994; see Knuth, 1984, p. 99)</button>')
    expect(out.html).toContain('popovertarget="cite-3">(1984)</button>')
  })

  it('gives each citation a popover with its references, linked to the References list', () => {
    const card =
      /<span id="cite-2" class="citation-card" popover="auto" role="note" data-pagefind-ignore="">(.*?)<\/span><\/span>/.exec(
        out.html,
      )
    expect(card?.[1]).toContain('<a href="#ref-johnson1994" class="citation-jump">')
    expect(card?.[1]).toContain('<a href="#ref-knuth1984" class="citation-jump">')
  })

  it('ends with a References list whose DOI and URL entries link out', () => {
    const list = out.html.slice(out.html.indexOf('<section id="refs"'))
    expect(list).toMatch(
      /^<section id="refs" class="references" role="doc-bibliography"><h2 id="references">References<\/h2>/,
    )
    expect(list).toContain('<div id="ref-knuth1984" class="csl-entry">Knuth, D. E. (1984). Literate Programming.')
    expect(list).toContain('<a href="https://doi.org/10.1093/comjnl/27.2.97">')
    expect(list).toContain('<a href="https://www.vldb.org/conf/1994/P439.PDF">')
    expect(out.headings.at(-1)).toEqual({ depth: 2, slug: 'references', text: 'References' })
  })

  it('leaves an e-mail address and code as written', () => {
    expect(out.html).toContain('<a href="mailto:ada@example.org">ada@example.org</a>')
    expect(out.html).toContain('<code>@knuth1984</code>')
  })

  it('gives the search text and the markdown twin the rendered words, not the syntax', () => {
    for (const text of [out.text, out.markdown!]) {
      expect(text).not.toMatch(/\[@|\{#|@fig-|@sec-|\u{F0000}/u)
      expect(text).toContain('Knuth (1984)')
      expect(text).toContain('Figure 1')
      expect(text).toContain('Section 1')
    }
    expect(out.markdown).toContain('[Knuth (1984)](#ref-knuth1984)')
    expect(out.markdown).toContain('![Figure 1: A figure](/f.png)')
    expect(out.markdown).toMatch(/\n## References\n\n- Johnson, T., & Shasha, D\. \(1994\)\./)
    // The reference is said once in the text, in the list, not again for each popover.
    expect(out.text.split('Literate Programming. The Computer Journal').length).toBe(2)
  })

  it('hands on the cited works as CSL-JSON', () => {
    expect(out.references?.map((r) => [r.id, r.DOI ?? r.URL])).toEqual([
      ['johnson1994', 'https://www.vldb.org/conf/1994/P439.PDF'],
      ['knuth1984', '10.1093/comjnl/27.2.97'],
    ])
  })
})

describe('styles and bibliography formats', () => {
  it('renders in the style an article names, and reads CSL-JSON', async () => {
    const nlm = readFileSync(new URL('../../content/styles/nlm-citation-sequence.csl', import.meta.url), 'utf8')
    const json = JSON.stringify([
      {
        id: 'k',
        type: 'book',
        title: 'A Book',
        author: [{ family: 'Doe', given: 'J' }],
        issued: { 'date-parts': [[2001]] },
      },
    ])
    const out = await renderMarkdown('A claim [@k], as @k says.', {
      bibliographies: [{ file: 'refs.json', text: json }],
      style: { file: 'nlm.csl', text: nlm },
    })
    expect(out.html).toContain('>(1)</button>')
    // A numeric style prints no author: a narrative citation names them, as Pandoc does.
    expect(out.html).toContain('>Doe (1)</button>')
    expect(out.markdown).toContain('- 1. Doe J. A Book. 2001.')
  })
})

describe('reference entries kept across articles sharing a bibliography', () => {
  const twins = `@article{doe2020a, author = {Doe, Jane}, title = {First Work}, journal = {J}, year = {2020}}
@article{doe2020b, author = {Doe, Jane}, title = {Second Work}, journal = {J}, year = {2020}}
`
  const entries = (html: string) =>
    [...html.matchAll(/<div id="ref-[^"]*" class="csl-entry">(.*?)<\/div>/g)].map((m) => m[1])

  it('gives each article the entry its own citations call for, disambiguation included', async () => {
    const both = await renderMarkdown('Both [@doe2020a; @doe2020b].', refs(twins))
    const one = await renderMarkdown('One [@doe2020a].', refs(twins))
    const bothAgain = await renderMarkdown('Both again [@doe2020b; @doe2020a].', refs(twins))
    // Cited together, the two works of one author and year are told apart; alone, not.
    expect(entries(both.html)[0]).toContain('(2020a)')
    expect(entries(one.html)).toHaveLength(1)
    expect(entries(one.html)[0]).toContain('(2020)')
    expect(entries(one.html)[0]).not.toContain('2020a')
    expect(entries(bothAgain.html)).toEqual(entries(both.html))
  })
})

describe('a style whose citations depend on their position', () => {
  // The first citation of a work in full, "ibid." right after it, the family name alone later.
  const style = POSITION_STYLE

  it('renders each cluster knowing the ones before it', async () => {
    const out = await renderMarkdown(
      'First [@knuth1984]. Again [@knuth1984]. Other [@johnson1994]. Back [@knuth1984].',
      {
        ...refs(),
        style: { file: 'position.csl', text: style },
      },
    )
    const buttons = [...out.html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1])
    expect(buttons).toEqual([
      'Donald E. Knuth, Literate Programming',
      'ibid.',
      'Theodore Johnson, Dennis Shasha, 2Q: A Low Overhead High Performance Buffer Management Replacement Algorithm',
      'Knuth',
    ])
  })
})

describe('mistakes are problems with a line, a key and a fix', () => {
  it('names an unknown key and the nearest one', async () => {
    expect(await problemsOf('One.\n\nAs [@knuth1948] said.', refs())).toEqual([
      {
        line: 3,
        message: 'the citation key @knuth1948 is in no bibliography of the article',
        fix: 'did you mean @knuth1984?',
      },
    ])
  })

  it('says to name a bibliography when there is none', async () => {
    const [problem] = (await problemsOf('As [@a] said.')) as Array<{ fix: string }>
    expect(problem!.fix).toContain('bibliography: references.bib')
  })

  it('names the line of malformed BibTeX in its own file', async () => {
    const broken = '@article{a, title = {A}, year = 2000}\n\n@article{b,\n  title = {Unclosed,\n  year = 2001\n}\n'
    expect(await problemsOf('[@a]', refs(broken))).toEqual([
      {
        file: 'refs.bib',
        line: 7,
        message: expect.stringContaining('the BibTeX does not parse'),
        fix: expect.any(String),
      },
    ])
  })

  it('names the line of malformed CSL-JSON', async () => {
    const [problem] = await problemsOf('[@a]', {
      bibliographies: [{ file: 'refs.json', text: '[\n  {"id": "a",}\n]' }],
    })
    expect(problem).toMatchObject({ file: 'refs.json', line: 2 })
  })

  it('refuses a key given twice', async () => {
    const twice = `${BIB}\n@book{knuth1984, title = {Again}, year = 1990}\n`
    expect(await problemsOf('[@knuth1984]', refs(twice))).toEqual([
      { file: 'refs.bib', line: 17, message: 'the key "knuth1984" is given twice', fix: expect.any(String) },
    ])
  })

  it('refuses a style that is not CSL', async () => {
    const [problem] = await problemsOf('[@knuth1984]', refs(BIB, { style: { file: 'my.csl', text: '<html></html>' } }))
    expect(problem).toMatchObject({ file: 'my.csl', message: expect.stringContaining('not a CSL style') })
  })
})
