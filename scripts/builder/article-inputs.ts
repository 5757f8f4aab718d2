/**
 * The files an article's rendering reads besides its markdown: the bibliographies and CSL style
 * its front matter names (`bibliography:`, `csl:`, relative to the article) and, for an article
 * that may cite (its text has an `@`), the publication-wide `references.bib` when there is one.
 * Their bytes are part of the article's hash, the build cache's key, so that an edited `.bib`
 * renders its articles again; their stats are part of its stat signature (source-stats.ts), so
 * that an unchanged article file with an edited bibliography is not taken as unchanged.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, normalize } from 'node:path'
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter'
import { nearest } from './references/syntax.ts'
import type { ReferenceInputs } from './references/index.ts'
import type { BuildProblem } from './errors.ts'
import { isRecordable, recordableSignature, statSignature } from './source-stats.ts'
import { settledStat } from './racy-sources.ts'

/** The publication-wide bibliography, in CONTENT_DIR, that every article's citations may use. */
export const SHARED_BIBLIOGRAPHY = 'references.bib'
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/
const NAMES_INPUT = /^(bibliography|csl)\s*:/m

/** The input files an article names (relative to CONTENT_DIR), in order: bibliographies, style, shared bibliography. */
export function inputsOf(source: string): string[] {
  const fm = FRONTMATTER.exec(source)
  const inputs: string[] = []
  if (fm && NAMES_INPUT.test(fm[1]!)) {
    let data: Record<string, unknown> = {}
    try {
      data = parseFrontmatter(source).frontmatter
    } catch {
      // The front matter's own check reports it.
    }
    const list = Array.isArray(data.bibliography) ? data.bibliography : [data.bibliography]
    for (const f of [...list, data.csl]) if (typeof f === 'string' && f) inputs.push(normalize(f))
  }
  if (source.includes('@') && !inputs.includes(SHARED_BIBLIOGRAPHY)) inputs.push(SHARED_BIBLIOGRAPHY)
  return inputs
}

/** Reads an article's inputs for one build: each file once, whatever the number of articles sharing it. */
export class ArticleInputs {
  readonly #dir: string
  readonly #texts = new Map<string, string | undefined>()
  readonly #stats = new Map<string, string>()
  readonly #scannedAt = Date.now()
  readonly #settled = new Map<string, string>()
  constructor(contentDir: string) {
    this.#dir = contentDir
  }

  text(file: string): string | undefined {
    if (!this.#texts.has(file)) {
      const path = join(this.#dir, file)
      this.#texts.set(file, existsSync(path) ? readFileSync(path, 'utf8') : undefined)
    }
    return this.#texts.get(file)
  }

  /** The article's hash: its file's alone when it reads no other file, else with theirs. */
  hash(fileHash: string, inputs: readonly string[] | undefined): string {
    const present = (inputs ?? []).filter((f) => this.text(f) !== undefined)
    if (present.length === 0) return fileHash
    const h = createHash('sha256').update(fileHash)
    for (const f of present) h.update(`\0${f}\0`).update(this.text(f)!)
    return h.digest('hex')
  }

  /** The inputs' part of the stat signature ('' for none); undefined when one changed too recently to trust. */
  signature(inputs: readonly string[] | undefined, recordable = false): string | undefined {
    return this.#joined(inputs, (f) => this.#signatureOf(f, recordable))
  }

  /**
   * The inputs' part of a stat signature the next build may trust, as `signature(inputs, true)`,
   * but an input that was racy when this build began counts once it is settled: read again as the
   * text the build used, its stat unchanged since (racy-sources.ts); undefined while one is not.
   */
  settledSignature(inputs: readonly string[] | undefined): string | undefined {
    return this.#joined(inputs, (f) => this.#signatureOf(f, true) || this.#settledOf(f))
  }

  /** Each input's signature joined ('' for none), or undefined when one of them is ''. */
  #joined(inputs: readonly string[] | undefined, signatureOf: (file: string) => string): string | undefined {
    let out = ''
    for (const f of inputs ?? []) {
      const sig = signatureOf(f)
      if (sig === '') return undefined
      out += `|${sig}`
    }
    return out
  }

  /** `file`'s stat signature ('-' when it is missing), or '' when `recordable` and it is racy. */
  #signatureOf(file: string, recordable: boolean): string {
    const key = `${recordable}\0${file}`
    let sig = this.#stats.get(key)
    if (sig === undefined) {
      const stat = statSync(join(this.#dir, file), { throwIfNoEntry: false })
      sig = !stat ? '-' : ((recordable ? recordableSignature(stat, this.#scannedAt) : statSignature(stat)) ?? '')
      this.#stats.set(key, sig)
    }
    return sig
  }

  /** A racy `file`'s stat signature once it reads again as this build read it, settled; else ''. */
  #settledOf(file: string): string {
    let sig = this.#settled.get(file)
    if (sig === undefined) {
      const path = join(this.#dir, file)
      const began = Date.now()
      const stat = statSync(path, { throwIfNoEntry: false })
      const same = stat && isRecordable(stat, began) && readFileSync(path, 'utf8') === this.text(file)
      sig = (same && settledStat(path, stat, began)) || ''
      this.#settled.set(file, sig)
    }
    return sig
  }

  /** What the renderer reads, or the problems of a named file that is missing. */
  references(file: string, source: string, inputs: readonly string[] | undefined, problems: BuildProblem[]) {
    const out: ReferenceInputs = { bibliographies: [] }
    for (const f of inputs ?? []) {
      const text = this.text(f)
      if (text === undefined) {
        if (f !== SHARED_BIBLIOGRAPHY) problems.push(this.#missing(file, source, f))
        continue
      }
      if (f.endsWith('.csl')) out.style = { file: f, text }
      else out.bibliographies.push({ file: f, text })
    }
    return out
  }

  #missing(file: string, source: string, missing: string): BuildProblem {
    const style = missing.endsWith('.csl')
    const field = style ? 'csl' : 'bibliography'
    const line = source.split('\n').findIndex((l) => l.startsWith(`${field}:`) || l.includes(missing)) + 1
    const candidates = readdirSync(this.#dir).filter((f) => (style ? /\.csl$/ : /\.(bib|json)$/).test(f))
    const near = nearest(missing, candidates)
    return {
      file,
      ...(line > 0 ? { line } : {}),
      field,
      message: style
        ? `the CSL style "${missing}" does not exist`
        : `the bibliography file "${missing}" does not exist`,
      fix: near
        ? `did you mean "${near}"?`
        : `add the file beside the article${style ? ', or remove csl: for the site default (APA 7th)' : ''}`,
    }
  }
}
