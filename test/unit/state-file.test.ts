import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ArticleMeta } from '../../scripts/builder/content.ts'
import type { BuildState } from '../../scripts/builder/previous.ts'
import { STATE_FILE, readState, writeState } from '../../scripts/builder/state-file.ts'
import { tempDir } from '../support/temp.ts'

const meta = (slug: string, title = `About ${slug}`): ArticleMeta =>
  ({ slug, hash: `h-${slug}`, title, date: '2025-01-02T00:00:00.000Z', tags: ['x'], draft: false }) as ArticleMeta

const state = (articles: ArticleMeta[]): BuildState => ({
  version: 7,
  templateKey: 't',
  assemblyKey: 'a',
  astroKey: 's',
  search: { shards: { '0-0': 'k' } },
  articles,
  sources: { one: '10:1:1:7' },
  navKeys: { one: 'n1', two: 'n2' },
  llmsFull: { one: [0, 10] },
})

describe("a build's state file", () => {
  it('reads back what was written, with and without signatures and nav keys', () => {
    const dir = tempDir('state')
    const written = state([meta('one'), meta('two'), meta('three')])
    writeState(dir, written)
    const read = readState(dir)!
    expect(read).toEqual({ ...written, sources: { one: '10:1:1:7' }, navKeys: { one: 'n1', two: 'n2' } })
  })

  it('writes an unchanged article as it read it, and a changed one anew', () => {
    const dir = tempDir('state')
    writeState(dir, state([meta('one'), meta('two')]))
    const read = readState(dir)!
    const next = tempDir('state')
    // The same objects; one article retitled (a new object), one nav key changed.
    const [one, two] = read.articles
    writeState(next, { ...read, articles: [one!, { ...two!, title: 'Retitled' }], navKeys: { one: 'n9', two: 'n2' } })
    const lines = readFileSync(join(next, STATE_FILE), 'utf8').split('\n')
    expect(JSON.parse(lines[1]!)).toEqual([one, '10:1:1:7', 'n9'])
    expect(JSON.parse(lines[2]!)[0].title).toBe('Retitled')
    expect(readState(next)!.articles.map((a) => a.title)).toEqual(['About one', 'Retitled'])
  })

  it('keeps accented text through a read and two writes, byte for byte', () => {
    const dir = tempDir('state')
    writeState(dir, state([meta('one', 'Über Zürich — “naïve” ∑'), meta('two', 'Plain')]))
    const first = readFileSync(join(dir, STATE_FILE))
    const next = tempDir('state')
    writeState(next, readState(dir)!)
    expect(readFileSync(join(next, STATE_FILE)).equals(first)).toBe(true)
    expect(readState(next)!.articles.map((a) => a.title)).toEqual(['Über Zürich — “naïve” ∑', 'Plain'])
  })

  it('is absent from a folder without one', () => {
    expect(readState(tempDir('state'))).toBeUndefined()
  })
})
