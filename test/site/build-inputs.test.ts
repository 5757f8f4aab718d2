import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { computeInputs } from '../../scripts/build-state.ts'

const BASE = 'http://localhost:4321'

describe("the build's fingerprint of its inputs", () => {
  let dir: string
  const made = () => {
    dir = mkdtempSync(join(tmpdir(), 'lattice-inputs-'))
    writeFileSync(join(dir, 'one.md'), 'one')
    writeFileSync(join(dir, 'two.md'), 'two')
    return dir
  }
  // The scan the build takes, made by hand: the fingerprint must come out the same from its stats.
  const scanned = (d: string) => {
    const names = readdirSync(d)
      .filter((n) => n.endsWith('.md'))
      .sort()
    return { names, stats: new Map(names.map((n) => [n, statSync(join(d, n))])), scannedAt: Date.now(), references: [] }
  }
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is the same from the stats the build took as from a scan of its own', () => {
    const d = made()
    expect(computeInputs(d, BASE, scanned(d)).fingerprint).toBe(computeInputs(d, BASE).fingerprint)
  })

  it('changes when an article is edited, touched, added or removed, and with BASE_URL', () => {
    const d = made()
    const seen = new Set([computeInputs(d, BASE).fingerprint])
    const differs = () => {
      const now = computeInputs(d, BASE).fingerprint
      expect(seen.has(now)).toBe(false)
      seen.add(now)
    }
    writeFileSync(join(d, 'one.md'), 'one, edited')
    differs()
    utimesSync(join(d, 'two.md'), new Date(1_000_000), new Date(1_000_000))
    differs()
    writeFileSync(join(d, 'three.md'), 'three')
    differs()
    rmSync(join(d, 'one.md'))
    differs()
    expect(seen.has(computeInputs(d, 'https://example.org').fingerprint)).toBe(false)
  })

  it('ignores what the build does not read: other files and folders', () => {
    const d = made()
    const before = computeInputs(d, BASE).fingerprint
    writeFileSync(join(d, 'notes.txt'), 'not an article')
    mkdirSync(join(d, 'drafts'))
    writeFileSync(join(d, 'drafts', 'later.md'), 'not built: the content folder is flat')
    expect(computeInputs(d, BASE).fingerprint).toBe(before)
  })
  it('changes when a bibliography or a citation style beside the articles changes', () => {
    const d = made()
    const seen = new Set([computeInputs(d, BASE).fingerprint])
    const differs = () => {
      const now = computeInputs(d, BASE).fingerprint
      expect(seen.has(now)).toBe(false)
      seen.add(now)
    }
    writeFileSync(join(d, 'references.bib'), '@book{a, title = {A}}')
    differs()
    writeFileSync(join(d, 'references.bib'), '@book{a, title = {A, edited}}')
    differs()
    mkdirSync(join(d, 'styles'))
    writeFileSync(join(d, 'styles', 'house.csl'), '<style/>')
    differs()
  })
})
