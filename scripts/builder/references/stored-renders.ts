/**
 * citeproc's renders kept on disk, across builds, by what they are made from: the style's text,
 * the bibliography files' texts and the citations as the scan read them. An edit that leaves an
 * article's citations as they were (prose added, a typo fixed) renders it again without loading
 * citation-js, parsing its bibliography or compiling the style, which a build process pays once
 * for the first article that cites (most of an edit's render, docs/benchmark.md).
 * Only renders without problems are kept: the same inputs give the same render.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import type { CslItem, SourceText } from './bibliography.ts'
import { cslNodes } from './csl-html.ts'
import type { Rendered } from './citeproc.ts'
import type { Cluster } from './syntax.ts'

/** Bump when a stored render's shape or meaning changes. */
const FORMAT = 1

interface Stored {
  clusters: Array<[number, string]>
  entries: Array<{ item: CslItem; html: string }>
}

export function storedKey(clusters: readonly Cluster[], bibliographies: readonly SourceText[], style: SourceText) {
  // By index, as citeproc.ts keys its own: cross-references take indices too.
  const cites = clusters.flatMap((c, i) => (c.kind === 'cite' ? [[i, c.narrative, c.items]] : []))
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, style.text, bibliographies, cites]))
    .digest('hex')
}

const path = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`)

export async function readStored(dir: string, key: string): Promise<Rendered | undefined> {
  try {
    const stored = JSON.parse(await readFile(path(dir, key), 'utf8')) as Stored
    return { clusters: new Map(stored.clusters), entries: stored.entries, nodes: cslNodes }
  } catch {
    // Missing, or unreadable for any reason: citeproc renders it.
    return undefined
  }
}

let seq = 0
/** Keeps a render; one that cannot be written is rendered again next time. */
export async function store(dir: string, key: string, rendered: Rendered): Promise<void> {
  const file = path(dir, key)
  const stored: Stored = { clusters: [...rendered.clusters], entries: rendered.entries }
  // Whole or absent: a build killed while writing leaves no half file under the key. Render
  // threads share the process id, and two may keep the same render at once.
  const tmp = `${file}.${process.pid}.${threadId}.${seq++}.tmp`
  try {
    await mkdir(join(dir, key.slice(0, 2)), { recursive: true })
    await writeFile(tmp, JSON.stringify(stored))
    await rename(tmp, file)
  } catch {
    await rm(tmp, { force: true })
  }
}
