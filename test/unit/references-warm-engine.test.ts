/**
 * A render thread keeps citeproc's engine (one per style), its sort keys, the reference entries
 * and whole renders across articles. Nothing of one article may reach another: an article
 * rendered after others in the same thread reads byte for byte as in a fresh thread
 * (disambiguation, "ibid." and a numeric style's numbers are the article's own).
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createRenderPool, renderMarkdown } from '../../scripts/builder/render/index.ts'
import type { ReferenceInputs } from '../../scripts/builder/references/index.ts'
import { POSITION_STYLE } from '../support/csl-styles.ts'

const BIB = `@article{doe2020a, author = {Doe, Jane}, title = {First Work}, journal = {J}, year = {2020}}
@article{doe2020b, author = {Doe, Jane}, title = {Second Work}, journal = {J}, year = {2020}}
@article{doe2020c, author = {Doe, John}, title = {Third Work}, journal = {J}, year = {2020}}
@book{roe1999, author = {Roe, Richard and Poe, Edgar}, title = {A Book}, publisher = {P}, year = {1999}}
@article{lee2011, author = {Lee, Kim and Roe, Richard and Doe, Jane}, title = {Joint}, journal = {K}, year = {2011},
  doi = {10.5555/joint}}
`
const NLM = readFileSync(new URL('../../content/styles/nlm-citation-sequence.csl', import.meta.url), 'utf8')
const inputs = (style?: string, bib = BIB): ReferenceInputs => ({
  bibliographies: [{ file: 'refs.bib', text: bib }],
  ...(style ? { style: { file: 'style.csl', text: style } } : {}),
})

/** The articles checked: each alone in a fresh thread, then after the others in this one. */
const PROBES: Array<[string, string, ReferenceInputs]> = [
  ['APA, disambiguated by year', 'A [@doe2020a]. B [@doe2020b; @roe1999]. @lee2011 says so.', inputs()],
  ['APA, nothing to disambiguate', 'Only [@doe2020b, p. 3] and @roe1999 [-@roe1999].', inputs()],
  ['numeric', 'First [@roe1999]. Then [@doe2020c; @doe2020a]. @lee2011 too.', inputs(NLM)],
  ['positions', 'One [@doe2020a]. Again [@doe2020a]. Two [@roe1999]. Back [@doe2020a].', inputs(POSITION_STYLE)],
]
/** What the thread sees first: other orders, other neighbours, the same works. */
const OTHERS: Array<[string, ReferenceInputs]> = [
  ['All [@doe2020a; @doe2020b; @doe2020c; @lee2011; @roe1999].', inputs()],
  ['Only [@doe2020c] and [@doe2020a].', inputs()],
  ['Late [@lee2011]. Early [@roe1999; @doe2020b].', inputs(NLM)],
  ['[@roe1999]. [@roe1999]. [@doe2020a]. [@roe1999].', inputs(POSITION_STYLE)],
]

describe('an article rendered after others, in a thread that keeps citeproc warm', () => {
  const pools: Array<ReturnType<typeof createRenderPool>> = []
  afterAll(() => Promise.all(pools.map((p) => p.close())))

  it('reads byte for byte as in a fresh thread', async () => {
    // One thread for each probe, so that each is the first article its thread renders.
    const fresh = await Promise.all(
      PROBES.map(([, md, refs]) => {
        const pool = createRenderPool({ threads: 1 })
        pools.push(pool)
        return pool.render(md, refs)
      }),
    )
    for (const [md, refs] of OTHERS) await renderMarkdown(md, refs)
    for (const [i, [name, md, refs]] of PROBES.entries()) {
      const warm = await renderMarkdown(md, refs)
      expect(warm.html, name).toBe(fresh[i]!.html)
      expect(warm.markdown, name).toBe(fresh[i]!.markdown)
    }
    // The probes did test something: disambiguation and positions show.
    expect(fresh[0]!.html).toContain('2020a')
    expect(fresh[1]!.html).toContain('>(Doe, 2020, p. 3)<')
    expect(fresh[3]!.html).toContain('>ibid.</button>')
  }, 60_000)
})

describe('whole renders kept by (style, citations, cited works)', () => {
  const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1])

  it('renders again when a cited work changes, or the style', async () => {
    const md = 'Claim [@roe1999].'
    const before = await renderMarkdown(md, inputs())
    const edited = await renderMarkdown(
      md,
      inputs(undefined, BIB.replace('{Roe, Richard and Poe, Edgar}', '{Roe, Richard}')),
    )
    const numeric = await renderMarkdown(md, inputs(NLM))
    expect(buttons(before.html)).toEqual(['(Roe &#x26; Poe, 1999)'])
    expect(buttons(edited.html)).toEqual(['(Roe, 1999)'])
    expect(buttons(numeric.html)).toEqual(['(1)'])
  })

  it('keeps each citation in its place when cross-references come before it', async () => {
    const plain = await renderMarkdown('Claim [@roe1999] and [@lee2011].', inputs())
    const shifted = await renderMarkdown('## Part {#sec-a}\n\nAs @sec-a: [@roe1999] and [@lee2011].', inputs())
    expect(buttons(shifted.html)).toEqual(buttons(plain.html))
    expect(shifted.html).toContain('>Section 1</a>')
  })
})

describe("the patches to citeproc's internals", () => {
  it('apply to the citeproc installed: another version renders unpatched until they are checked again', async () => {
    const { PATCHED_CITEPROC, installedCiteproc, patched } = await import(
      '../../scripts/builder/references/citeproc-patches.ts'
    )
    // On a citeproc upgrade: render the bench corpus's citing articles with and without the
    // patches, byte for byte, then move PATCHED_CITEPROC.
    expect(installedCiteproc).toBe(PATCHED_CITEPROC)
    expect(patched).toBe(true)
  })
})
