import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../scripts/builder/render/index.ts'
import type { ReferenceInputs } from '../../scripts/builder/references/index.ts'
import { storedKey } from '../../scripts/builder/references/stored-renders.ts'
import { scan } from '../../scripts/builder/references/syntax.ts'
import { DEFAULT_STYLE } from '../../scripts/builder/references/default-style.ts'

const BIB = `@article{knuth1984,
  author = {Knuth, Donald E.}, title = {Literate Programming}, journal = {The Computer Journal},
  year = {1984}, volume = {27}, pages = {97--111}, doi = {10.1093/comjnl/27.2.97}
}
@book{lamport1994, author = {Lamport, Leslie}, title = {LaTeX}, publisher = {Addison-Wesley}, year = {1994}}
`
const MD = 'As @knuth1984 argued [see @lamport1994, p. 3].\n\nSome prose.'

describe("citeproc's renders kept on disk across builds", () => {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-stored-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const inputs = (text = BIB): ReferenceInputs => ({ bibliographies: [{ file: 'refs.bib', text }], renders: dir })
  const stored = () => readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.json'))

  it('renders an article the same from a kept render as from citeproc', async () => {
    const fresh = await renderMarkdown(MD, inputs())
    expect(stored()).toHaveLength(1)
    const again = await renderMarkdown(MD, inputs())
    expect(again).toEqual(fresh)
    expect(fresh.html).toContain('Knuth')
  })

  it('uses the kept render, without citeproc, when only the prose changed', async () => {
    const [file] = stored()
    // A kept render edited by hand shows that it, not citeproc, wrote the citations.
    const path = join(dir, String(file))
    const kept = JSON.parse(readFileSync(path, 'utf8'))
    kept.clusters[0][1] = 'KEPT-CITATION'
    writeFileSync(path, JSON.stringify(kept))
    const edited = await renderMarkdown(`${MD} One more sentence.`, inputs())
    expect(edited.html).toContain('KEPT-CITATION')
    expect(edited.html).toContain('One more sentence.')
  })

  it('renders again when a citation, the bibliography or the style changes', () => {
    const key = (md: string, text = BIB, style = DEFAULT_STYLE) =>
      storedKey(scan(md).clusters, [{ file: 'refs.bib', text }], style)
    expect(key(`${MD} More prose.`)).toBe(key(MD))
    expect(key(MD.replace('p. 3', 'p. 4'))).not.toBe(key(MD))
    expect(key(MD, BIB.replace('1994}}', '1995}}'))).not.toBe(key(MD))
    expect(key(MD, BIB, { file: 'x.csl', text: `${DEFAULT_STYLE.text} ` })).not.toBe(key(MD))
  })

  it('keeps no render of an article with a problem', async () => {
    const before = stored().length
    await expect(renderMarkdown('As @nobody1999 said.', inputs())).rejects.toThrow(/nobody1999/)
    expect(stored()).toHaveLength(before)
  })
})
