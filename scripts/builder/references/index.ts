/**
 * Citations (Pandoc's syntax, rendered by citeproc in a CSL style) and cross-references
 * (Quarto's syntax) for the renderer: `prepareReferences` reads the markdown before it is
 * parsed, `finishReferences` fills the parsed tree and writes the markdown twin. Any mistake
 * throws one ReferencesError listing every problem with its file and line.
 */
import type { Root } from 'hast'
import type { CslItem, FileProblem, SourceText } from './bibliography.ts'
import type { Rendered } from './citeproc.ts'
import { applyReferences } from './apply.ts'
import { DEFAULT_STYLE } from './default-style.ts'
import { readStored, store, storedKey } from './stored-renders.ts'
import { mayHaveReferences, scan, type Scanned } from './syntax.ts'
import { twinMarkdown } from './twin.ts'

export type { CslItem, SourceText } from './bibliography.ts'

/** What an article's citations read besides its markdown: its bibliography files and CSL style. */
export interface ReferenceInputs {
  bibliographies: SourceText[]
  /** The article's `csl:` style; the site default (APA 7th) without it. */
  style?: SourceText
  /** A folder where citeproc's renders are kept across builds (stored-renders.ts); none without it. */
  renders?: string
}

/** A problem with a line: in the article when `file` is absent, else in that file. */
export type ReferenceProblem = (FileProblem | (Omit<FileProblem, 'file'> & { file?: undefined })) & {
  /** A duplicate's first line. */
  first?: number
}

export class ReferencesError extends Error {
  readonly problems: ReferenceProblem[]
  constructor(problems: ReferenceProblem[]) {
    super(problems.map((p) => `${p.file ?? 'the article'}${p.line ? `:${p.line}` : ''}: ${p.message}`).join('; '))
    this.name = 'ReferencesError'
    this.problems = problems
  }
}

export interface Prepared {
  scanned: Scanned
  rendered?: Rendered
}

/**
 * The markdown to parse, with the citations rendered; undefined when it has none of this syntax.
 * citation-js and citeproc are loaded on the first article that cites, not by every render thread.
 */
export async function prepareReferences(
  markdown: string,
  inputs: ReferenceInputs | undefined,
): Promise<Prepared | undefined> {
  if (!mayHaveReferences(markdown)) return undefined
  const scanned = scan(markdown)
  if (scanned.clusters.length === 0 && scanned.labels.size === 0) return undefined
  const problems: ReferenceProblem[] = [...scanned.problems]
  let rendered: Rendered | undefined
  if (scanned.clusters.some((c) => c.kind === 'cite')) {
    const style = inputs?.style ?? DEFAULT_STYLE
    const sources = inputs?.bibliographies ?? []
    const kept = inputs?.renders && { dir: inputs.renders, key: storedKey(scanned.clusters, sources, style) }
    rendered = kept ? await readStored(kept.dir, kept.key) : undefined
    if (!rendered) {
      const [{ readBibliographies }, { renderCitations }] = await Promise.all([
        import('./bibliography.ts'),
        import('./citeproc.ts'),
      ])
      const bibliographies = readBibliographies(sources)
      problems.push(...bibliographies.problems)
      if (bibliographies.problems.length === 0) {
        const out = renderCitations(scanned.clusters, bibliographies.items, style)
        problems.push(...out.problems, ...out.fileProblems)
        rendered = out.rendered
        if (kept && rendered && problems.length === 0) await store(kept.dir, kept.key, rendered)
      }
    }
  }
  if (problems.length) throw new ReferencesError(problems)
  return { scanned, rendered }
}

/** Fills the sanitised tree; returns the markdown twin and the cited items (CSL-JSON). */
export function finishReferences(tree: Root, prepared: Prepared): { markdown: string; references: CslItem[] } {
  const applied = applyReferences(tree, prepared.scanned, prepared.rendered)
  if (applied.problems.length) throw new ReferencesError(applied.problems)
  return {
    markdown: twinMarkdown(prepared.scanned, applied.clusterText, prepared.rendered),
    references: (prepared.rendered?.entries ?? []).map((e) => e.item),
  }
}
