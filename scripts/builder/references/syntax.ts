/**
 * Reads citations in Pandoc's syntax (https://pandoc.org/MANUAL.html#citation-syntax) and
 * cross-references in Quarto's (https://quarto.org/docs/authoring/cross-references.html) from an
 * article's markdown, and puts a token in place of each, for the renderer to fill in:
 *
 * - `[@a; see @b, p. 4]` a cluster, `[-@a]` the year alone, `@a` narrative ("Knuth (1984)");
 * - `@fig-x`, `@tbl-x`, `@eq-x`, `@sec-x` (and in brackets) a cross-reference;
 * - `![Caption](src){#fig-x}`, a line `: Caption {#tbl-x}` beside a table, `$$ … $$ {#eq-x}`
 *   and `## Heading {#sec-x}` a label, numbered in order of appearance.
 *
 * Tokens are characters of Unicode's supplementary private use area, which the markdown parser
 * passes through as text, so each lands in the text node where the syntax stood.
 */
import { distance } from 'fastest-levenshtein'
import { blocksOf, countLines, piecesOf, type Block } from './prose.ts'

export interface CiteItem {
  key: string
  prefix: string
  suffix: string
  locator?: string
  label?: string
  /** `[-@key]`: the year alone. */
  suppressAuthor: boolean
}
/** One citation cluster or cross-reference in the text, where it was written. */
export interface Cluster {
  kind: 'cite' | 'ref'
  /** `@key` in the sentence, not in brackets. */
  narrative: boolean
  items: CiteItem[]
  line: number
  source: string
}
export type LabelKind = 'fig' | 'tbl' | 'eq' | 'sec'
export interface Label {
  kind: LabelKind
  id: string
  /** "1", or for a section "2.1". */
  number: string
  line: number
  /** A figure's or table's caption as written. */
  caption?: string
}
export interface LineProblem {
  line: number
  message: string
  fix?: string
  /** Where the first of two was (a duplicate label's), said after the message. */
  first?: number
}
export interface Scanned {
  /** The markdown with a token for each cluster and label. */
  markdown: string
  clusters: Cluster[]
  labels: Map<string, Label>
  /** Each ATX heading's number, in order ("2.1"), when a section is labelled. */
  headings: string[]
  problems: LineProblem[]
}

export const TOKEN = /\u{F0000}([clh])(\d+)\u{F0001}/gu
export const token = (kind: 'c' | 'l' | 'h', n: number) => `\u{F0000}${kind}${n}\u{F0001}`
export const LABEL_KINDS: Record<LabelKind, string> = { fig: 'Figure', tbl: 'Table', eq: 'Equation', sec: 'Section' }

/** Pandoc's key: a letter, digit or `_`, then those and internal punctuation (`:.#$%&-+?<>~/`). */
const KEY = String.raw`[\p{L}\p{N}_](?:[\p{L}\p{N}_]|[:.#$%&\-+?<>~/](?=[\p{L}\p{N}_]))*`
const CLUSTER = /(?<![!\]\\])\[([^[\]]*?@[^[\]]*)\](?![([{:])/gu
const ITEM = new RegExp(String.raw`^([\s\S]*?)(-?)@(${KEY})([\s\S]*)$`, 'u')
/** `@key`, and Pandoc's locator after it in brackets (`@key [p. 33]`), which holds no citation. */
const NARRATIVE = new RegExp(String.raw`(?<![\p{L}\p{N}_\\@./:=+\-])@(${KEY})(?: \[([^[\]@]+)\](?![(\[]))?`, 'gu')
const CITATION = new RegExp(`${CLUSTER.source}|${NARRATIVE.source}`, 'gu')
const CROSSREF = /^(fig|tbl|eq|sec)-/
/** Pandoc's locator terms (the CSL locator it becomes); a bare number is a page. */
const LOCATORS: Record<string, string> = {
  p: 'page',
  pp: 'page',
  page: 'page',
  pages: 'page',
  chap: 'chapter',
  ch: 'chapter',
  chapter: 'chapter',
  sec: 'section',
  section: 'section',
  '§': 'section',
  fig: 'figure',
  figure: 'figure',
  vol: 'volume',
  volume: 'volume',
  para: 'paragraph',
  paragraph: 'paragraph',
  n: 'note',
  note: 'note',
  l: 'line',
  line: 'line',
  bk: 'book',
  book: 'book',
  pt: 'part',
  part: 'part',
  col: 'column',
  column: 'column',
  no: 'issue',
}
const LOCATOR = /^,?\s*(?:([\p{L}§]+)\.?\s*)?(\d[\w]*(?:\s*[-–,]\s*\d[\w]*)*)([\s\S]*)$/u
const FIGURE = /(!\[([^\]]*)\]\([^)]*\))\{#(fig-[\w-]+)\}/g
const TABLE_CAPTION = /^: +(.*?)\s*\{#(tbl-[\w-]+)\}\s*$/
const HEADING = /^ {0,3}(#{2,6})[ \t]+(.*?)(?:[ \t]+\{#(sec-[\w-]+)\})?[ \t]*#*[ \t]*$/
const EQUATION_CLOSE = /^(.*)\$\$[ \t]*\{#(eq-[\w-]+)\}[ \t]*$/
const ONE_LINE_EQUATION = /^ {0,3}\$\$(.+?)\$\$[ \t]*\{#(eq-[\w-]+)\}[ \t]*$/

/** True when the markdown may hold anything this module reads: most articles are passed over. */
export const mayHaveReferences = (markdown: string) => markdown.includes('@') || markdown.includes('{#')

export function scan(markdown: string): Scanned {
  const out: Scanned = { markdown: '', clusters: [], labels: new Map(), headings: [], problems: [] }
  const counts: Record<LabelKind, number> = { fig: 0, tbl: 0, eq: 0, sec: 0 }
  const section: number[] = []
  const addLabel = (kind: LabelKind, id: string, line: number, number?: string, caption?: string) => {
    const known = out.labels.get(id)
    if (known) {
      out.problems.push({
        line,
        message: `the label "${id}" is used twice`,
        first: known.line,
        fix: 'give each figure, table, equation or section its own label',
      })
      return
    }
    out.labels.set(id, { kind, id, number: number ?? String(++counts[kind]), line, caption })
  }
  const labelToken = (id: string) => token('l', [...out.labels.keys()].indexOf(id))
  const parts: string[] = []
  for (const block of blocksOf(markdown)) {
    if (block.kind === 'code') parts.push(block.lines.join('\n'))
    else if (block.kind === 'math') parts.push(equation(block, addLabel, labelToken))
    else parts.push(prose(block, out, addLabel, labelToken, section))
  }
  out.markdown = parts.join('\n')
  // Headings are numbered only where a section is labelled (Quarto's number-sections).
  if (![...out.labels.values()].some((l) => l.kind === 'sec')) {
    out.markdown = out.markdown.replace(/\u{F0000}h\d+\u{F0001}/gu, '')
    out.headings = []
  }
  // The equations' numbers, known once their labels are all read.
  out.markdown = out.markdown.replace(/\\tag\{\u{F0000}l(\d+)\u{F0001}\}/gu, (_all, n: string) => {
    const label = [...out.labels.values()][Number(n)]
    return `\\tag{${label?.number ?? '?'}}`
  })
  for (const c of out.clusters)
    for (const item of c.items)
      if (c.kind === 'ref' && !out.labels.has(item.key)) out.problems.push(unknownLabel(item.key, c.line, out.labels))
  return out
}

type AddLabel = (kind: LabelKind, id: string, line: number, number?: string, caption?: string) => void

/** A display block: a `{#eq-x}` after its closing `$$` numbers it (KaTeX's `\tag`) and marks it (a TeX comment). */
function equation(block: Block, addLabel: AddLabel, labelToken: (id: string) => string): string {
  const last = block.lines.length - 1
  const close = EQUATION_CLOSE.exec(block.lines[last]!)
  if (!close) return block.lines.join('\n')
  const id = close[2]!
  addLabel('eq', id, block.line + last)
  return equationBlock(
    block.lines
      .slice(0, last)
      .concat(close[1]!)
      .join('\n')
      .replace(/^\s*\$\$/, ''),
    id,
    labelToken,
  )
}

/** The block with KaTeX's `\tag{n}` (its number at the right) and the label's token in a TeX comment. */
function equationBlock(tex: string, id: string, labelToken: (id: string) => string): string {
  return `$$\n%${labelToken(id)}\n${tex.trim()} \\tag{${labelToken(id)}}\n$$`
}

function prose(block: Block, out: Scanned, addLabel: AddLabel, labelToken: (id: string) => string, section: number[]) {
  const lines = block.lines.map((text, i) => {
    const line = block.line + i
    const one = ONE_LINE_EQUATION.exec(text)
    if (one) {
      addLabel('eq', one[2]!, line)
      return equationBlock(one[1]!, one[2]!, labelToken)
    }
    const heading = HEADING.exec(text)
    if (heading) {
      const depth = heading[1]!.length - 2
      section.length = depth + 1
      section[depth] = (section[depth] ?? 0) + 1
      for (let d = 0; d < depth; d++) section[d] ??= 0
      const number = section.join('.')
      const h = token('h', out.headings.push(number) - 1)
      if (!heading[3]) return `${heading[1]} ${heading[2]}${h}`
      addLabel('sec', heading[3], line, number)
      return `${heading[1]} ${heading[2]}${labelToken(heading[3])}${h}`
    }
    const caption = TABLE_CAPTION.exec(text)
    if (caption) {
      addLabel('tbl', caption[2]!, line, undefined, caption[1])
      return `${labelToken(caption[2]!)}${caption[1]}`
    }
    return text.replace(FIGURE, (_all, image: string, alt: string, id: string) => {
      addLabel('fig', id, line, undefined, alt)
      return `${image}${labelToken(id)}`
    })
  })
  return piecesOf(lines.join('\n'), block.line)
    .map((p) => (p.prose ? citations(p.text, p.line, out) : p.text))
    .join('')
}

/** Replaces the clusters and narrative citations of a prose piece with tokens. */
function citations(text: string, line: number, out: Scanned): string {
  const lineOf = (index: number) => line + countLines(text.slice(0, index))
  const add = (c: Omit<Cluster, 'kind'>) => {
    const kind = c.items.every((i) => CROSSREF.test(i.key)) ? 'ref' : 'cite'
    if (kind === 'cite' && c.items.some((i) => CROSSREF.test(i.key)))
      out.problems.push({
        line: c.line,
        message: `"${c.source}" mixes a cross-reference with citations`,
        fix: 'write the cross-reference and the citations apart',
      })
    out.clusters.push({ kind, ...c })
    return token('c', out.clusters.length - 1)
  }
  // One pass, so that the clusters are numbered in the order they are read.
  return text.replace(
    CITATION,
    (all, inner: string | undefined, key: string | undefined, locator: string | undefined, index: number) => {
      if (key !== undefined) {
        const item = (locator && citeItem(`@${key}, ${locator}`)) || plainItem(key)
        return add({ narrative: true, items: [item], line: lineOf(index), source: all })
      }
      const items = inner!.split(';').map(citeItem)
      if (items.some((i) => i === undefined)) return all
      return add({ narrative: false, items: items as CiteItem[], line: lineOf(index), source: all })
    },
  )
}

const plainItem = (key: string): CiteItem => ({ key, prefix: '', suffix: '', suppressAuthor: false })

function citeItem(part: string): CiteItem | undefined {
  const m = ITEM.exec(part)
  if (!m) return undefined
  const [, prefix = '', minus, key = '', rest = ''] = m
  // A prefix ends with a space (or is empty): "foo@bar" is not a citation.
  if (prefix.trim() && !/\s$/.test(prefix)) return undefined
  const item: CiteItem = { key, prefix: prefix.trimStart(), suffix: rest.trimEnd(), suppressAuthor: minus === '-' }
  const loc = LOCATOR.exec(rest)
  if (loc && rest.trim().startsWith(',')) {
    const term = loc[1]?.toLowerCase()
    const label = term === undefined ? 'page' : LOCATORS[term]
    if (label) {
      item.label = label
      item.locator = loc[2]!
      item.suffix = loc[3]!.trimEnd()
    }
  }
  return item
}

/** The problem for a cross-reference to no label, with the nearest label as its fix. */
export function unknownLabel(id: string, line: number, labels: ReadonlyMap<string, Label>): LineProblem {
  const near = nearest(id, [...labels.keys()])
  return {
    line,
    message: `the cross-reference @${id} names no figure, table, equation or section`,
    fix: near ? `did you mean @${near}?` : `label one with {#${id}}`,
  }
}

/** The candidate nearest to `word` by edit distance, if near enough to be a likely typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1
  for (const c of candidates) {
    const d = distance(word, c)
    if (d < bestDistance) {
      best = c
      bestDistance = d
    }
  }
  return best
}
