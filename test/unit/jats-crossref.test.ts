/**
 * The JATS and Crossref writers on hostile metadata and markup: every file valid against its
 * official schema (xmllint), the deposit reproducible, the depositor's settings checked.
 */
import { describe, expect, it } from 'vitest'
import { crossrefDeposit, depositTimestamp } from '../../scripts/builder/crossref/index.ts'
import { DEPOSITOR_DEFAULTS, depositor } from '../../scripts/builder/crossref/depositor.ts'
import { jatsArticle, jatsBody } from '../../scripts/builder/jats/index.ts'
import { renderMarkdown } from '../../scripts/builder/render/index.ts'
import { HOSTILE, article } from '../support/citation-articles.ts'
import { validateCrossref, validateJats } from '../support/xml-schemas.ts'

const BASE = 'https://research.example.org'
const BIB = `@article{knuth1984,
  author = {Knuth, Donald E.},
  title = {Literate Programming & <Markup>},
  journal = {The Computer Journal},
  year = {1984}, volume = {27}, number = {2}, pages = {97--111},
  doi = {10.1093/comjnl/27.2.97}
}
@misc{site:2020/x,
  author = {{Research and Development}},
  title = {A Report Without a DOI},
  year = {2020},
  url = {https://example.org/report?a=1&b=2}
}
`
const MARKDOWN = [
  'Text before any heading, with `code <b>`, *emphasis* and a [link](https://example.org/?q=1&r=2).',
  '',
  '### A third-level heading first {#sec-deep}',
  '',
  '## Methods {#sec-methods}',
  '',
  'As @knuth1984 argued [see @knuth1984, p. 99; @site:2020/x], with $x^2 < y$ inline.',
  '',
  '$$ E = mc^2 $$ {#eq-energy}',
  '',
  '![A <figure> & more](/f.png){#fig-f}',
  '',
  '| a | b |',
  '|--:|:--|',
  '| 1 | <2> |',
  '',
  ': A table & its caption {#tbl-t}',
  '',
  '- a list item with @fig-f and @tbl-t',
  '- and @eq-energy, @sec-methods',
  '',
  '> A quote.',
  '',
  '```js',
  'if (a < b && c) {}',
  '```',
].join('\n')

const rendered = await renderMarkdown(MARKDOWN, { bibliographies: [{ file: 'refs.bib', text: BIB }] })
const body = jatsBody(rendered.html, BASE)
const references = rendered.references ?? []
const depositorOf = depositor({})

describe('JATS and Crossref writers', () => {
  it('writes valid JATS for hostile metadata, and a valid deposit for each Crossref DOI', async () => {
    await validateJats(HOSTILE.map((meta) => jatsArticle({ meta, body, references }, BASE)))
    const deposits = HOSTILE.flatMap(
      (meta) => crossrefDeposit(meta, { items: references, entries: body.entries }, depositorOf, BASE) ?? [],
    )
    await validateCrossref(deposits)
    // Deposits were made: a DOI with a subdivided prefix is one Crossref does not register.
    const made = HOSTILE.filter((m) => crossrefDeposit(m, { items: [], entries: new Map() }, depositorOf, BASE))
    expect(made.map((m) => m.slug)).toEqual(['hyphen', 'sici', 'three-authors'])
  }, 60_000)

  it('maps the markup: sections nested by level, equations in TeX, cross-references and citations as xref', () => {
    const xml = body.body
    expect(xml).toMatch(/^<body><p>Text before any heading, with <monospace>code &lt;b&gt;<\/monospace>/)
    expect(xml).toContain('<ext-link ext-link-type="uri" xlink:href="https://example.org/?q=1&amp;r=2">link</ext-link>')
    expect(xml).toContain(
      '<sec id="sec-deep"><label>0.1</label><title>A third-level heading first</title></sec><sec id="sec-methods">',
    )
    expect(xml).toContain('<inline-formula><tex-math>x^2 &lt; y</tex-math></inline-formula>')
    expect(xml).toMatch(/<disp-formula id="eq-energy"><label>\(1\)<\/label><tex-math>E = mc\^2<\/tex-math>/)
    expect(xml).toContain('<xref ref-type="bibr" rid="ref-knuth1984 ref-site_2020_x">')
    expect(xml).toContain('<xref ref-type="disp-formula" rid="eq-energy">')
    expect(xml).toContain('<preformat>if (a &lt; b &amp;&amp; c) {}</preformat>')
    expect(xml).toContain('<disp-quote><p>A quote.</p></disp-quote>')
    expect(xml).toContain('<td align="right">1</td><td align="left">&lt;2&gt;</td>')
  })

  it('deposits each reference by its DOI, else by its text as the References list shows it', () => {
    const meta = HOSTILE.find((m) => m.slug === 'hyphen')!
    const xml = crossrefDeposit(meta, { items: references, entries: body.entries }, depositorOf, BASE)!
    expect(xml).toContain('<citation key="ref1"><doi>10.1093/comjnl/27.2.97</doi></citation>')
    expect(xml).toMatch(/<citation key="ref2"><unstructured_citation>Research and Development\. \(2020\)\. A Report/)
  })

  it('writes the same deposit twice, timed by the newest change', () => {
    const meta = article({
      doi: '10.5555/12345678',
      changes: [
        { date: '2025-09-02', note: 'b' },
        { date: '2025-08-01', note: 'a' },
      ],
    })
    const once = crossrefDeposit(meta, { items: references, entries: body.entries }, depositorOf, BASE)
    expect(crossrefDeposit(meta, { items: references, entries: body.entries }, depositorOf, BASE)).toBe(once)
    expect(depositTimestamp(meta)).toBe('20250902000000')
    expect(depositTimestamp({ ...meta, changes: [] })).toBe('20250709000000')
    const edited = crossrefDeposit({ ...meta, hash: 'other' }, { items: [], entries: new Map() }, depositorOf, BASE)!
    expect(edited.match(/<doi_batch_id>([^<]+)/)![1]).not.toBe(once!.match(/<doi_batch_id>([^<]+)/)![1])
  })

  it('reads the depositor from the environment, with defaults, refusing what Crossref would', () => {
    expect(depositor({})).toEqual({
      name: DEPOSITOR_DEFAULTS.CROSSREF_DEPOSITOR_NAME,
      email: DEPOSITOR_DEFAULTS.CROSSREF_DEPOSITOR_EMAIL,
      registrant: DEPOSITOR_DEFAULTS.CROSSREF_REGISTRANT,
    })
    expect(
      depositor({
        CROSSREF_DEPOSITOR_NAME: ' Ada ',
        CROSSREF_DEPOSITOR_EMAIL: 'ada@uni.example',
        CROSSREF_REGISTRANT: 'Uni',
      }),
    ).toEqual({ name: 'Ada', email: 'ada@uni.example', registrant: 'Uni' })
    expect(() => depositor({ CROSSREF_DEPOSITOR_EMAIL: 'not-an-address' })).toThrow(/CROSSREF_DEPOSITOR_EMAIL/)
    expect(() => depositor({ CROSSREF_DEPOSITOR_NAME: 'x'.repeat(131) })).toThrow(/1 to 130 characters/)
  })
})
