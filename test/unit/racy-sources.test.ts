import { rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { ArticleInputs } from '../../scripts/builder/article-inputs.ts'
import { recordSettled } from '../../scripts/builder/racy-sources.ts'
import { RACY_MS, statSignature, type FileStat } from '../../scripts/builder/source-stats.ts'
import { tempDir } from '../support/temp.ts'

/** A folder with `names` written just now: racy for a scan taken now. */
function written(...names: string[]) {
  const dir = tempDir('racy-sources')
  const stats = new Map<string, FileStat>()
  for (const name of names) {
    writeFileSync(join(dir, `${name}.md`), `# ${name}\n`)
    stats.set(`${name}.md`, statSync(join(dir, `${name}.md`)))
  }
  return { dir, stats }
}
/** A read that began past the racy window of files written just now, of an article reading `inputs`. */
const settledRead = (inputs?: string[]) => ({ began: Date.now() + RACY_MS + 1000, inputs })
/** Inputs as ArticleInputs gives them: refs.bib settled, racy.bib not. */
const noInputs = { settledSignature: () => '' }
const inputs = {
  settledSignature: (files: readonly string[] | undefined) =>
    files?.includes('racy.bib') ? undefined : (files ?? []).map((f) => `|${f}`).join(''),
}

describe('recordSettled', () => {
  it('records a racy file read again past the racy window, its stat still the scan’s', () => {
    const { dir, stats } = written('a')
    const signatures: Record<string, string> = {}
    expect(recordSettled(dir, stats, signatures, new Map([['a', settledRead()]]), noInputs)).toBe(1)
    expect(signatures.a).toBe(statSignature(stats.get('a.md')!))
  })

  it('records nothing for a read within the racy window: an edit just after could share its stat', () => {
    const { dir, stats } = written('a')
    const signatures: Record<string, string> = {}
    expect(recordSettled(dir, stats, signatures, new Map([['a', { began: Date.now() }]]), noInputs)).toBe(0)
    expect(signatures).toEqual({})
  })

  it('records nothing for a file changed, removed or never read since the scan', () => {
    const { dir, stats } = written('changed', 'removed', 'unread')
    writeFileSync(join(dir, 'changed.md'), '# changed again, longer\n')
    rmSync(join(dir, 'removed.md'))
    const signatures: Record<string, string> = {}
    const read = new Map([
      ['changed', settledRead()],
      ['removed', settledRead()],
    ])
    expect(recordSettled(dir, stats, signatures, read, noInputs)).toBe(0)
    expect(signatures).toEqual({})
  })

  it('keeps a signature the scan recorded, and adds the inputs’ part, or nothing while one is racy', () => {
    const { dir, stats } = written('kept', 'cites', 'cites-racy')
    const signatures: Record<string, string> = { kept: 'as scanned' }
    const read = new Map([
      ['kept', settledRead()],
      ['cites', settledRead(['refs.bib'])],
      ['cites-racy', settledRead(['refs.bib', 'racy.bib'])],
    ])
    expect(recordSettled(dir, stats, signatures, read, inputs)).toBe(1)
    expect(signatures).toEqual({ kept: 'as scanned', cites: `${statSignature(stats.get('cites.md')!)}|refs.bib` })
  })
})

describe('ArticleInputs.settledSignature', () => {
  it('gives a racy input’s stat once it reads again as the build read it, and nothing if it changed', async () => {
    const dir = tempDir('racy-inputs')
    writeFileSync(join(dir, 'kept.bib'), '@misc{a, title={A}}\n')
    writeFileSync(join(dir, 'edited.bib'), '@misc{b, title={B}}\n')
    const inputs = new ArticleInputs(dir)
    // What the build hashed, read while both are racy.
    inputs.text('kept.bib')
    inputs.text('edited.bib')
    expect(inputs.signature(['kept.bib'], true)).toBeUndefined()
    await sleep(RACY_MS + 200)
    writeFileSync(join(dir, 'edited.bib'), '@misc{b, title={Not B}}\n')
    await sleep(RACY_MS + 200)
    expect(inputs.settledSignature(['kept.bib'])).toBe(`|${statSignature(statSync(join(dir, 'kept.bib')))}`)
    expect(inputs.settledSignature(['kept.bib', 'edited.bib'])).toBeUndefined()
    expect(inputs.settledSignature([])).toBe('')
  }, 20_000)
})
