/**
 * Where an article's markdown is prose: everything but fenced code blocks, display math blocks,
 * code spans, inline math, HTML tags, autolinks, HTML comments and backslash escapes. Citation
 * and cross-reference syntax is only read in prose, so that `@` in code, in math, in a link, in
 * an e-mail address or escaped as `\@` stays as written (Pandoc's rule,
 * https://pandoc.org/MANUAL.html#citation-syntax).
 * The block rules follow CommonMark 0.31 (§4.5 fenced code blocks); display math is `$$` on a
 * line of its own, as the renderer reads it.
 */

/** A piece of the markdown: prose to read, or anything else to keep as it is. */
export interface Piece {
  prose: boolean
  text: string
  /** 1-based line of the piece's first character. */
  line: number
}

/** A block the line pass found: prose lines, a fenced code block or a display math block. */
export interface Block {
  kind: 'prose' | 'code' | 'math'
  lines: string[]
  /** 1-based line of the block's first line. */
  line: number
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const MATH_OPEN = /^ {0,3}\$\$/

/** Splits markdown into blocks by lines (a CRLF file is read as LF). */
export function blocksOf(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n')
  const blocks: Block[] = []
  let current: Block | undefined
  let fence: string | undefined
  const open = (kind: Block['kind'], line: number) => {
    current = { kind, lines: [], line }
    blocks.push(current)
  }
  lines.forEach((text, i) => {
    const line = i + 1
    if (current?.kind === 'code') {
      current.lines.push(text)
      const close = FENCE.exec(text)
      if (
        close &&
        close[1]![0] === fence![0] &&
        close[1]!.length >= fence!.length &&
        !/\S/.test(text.trim().slice(close[1]!.length))
      )
        current = undefined
      return
    }
    if (current?.kind === 'math') {
      current.lines.push(text)
      if (/\$\$/.test(text)) current = undefined
      return
    }
    const fenceOpen = FENCE.exec(text)
    if (fenceOpen) {
      fence = fenceOpen[1]!
      open('code', line)
      current!.lines.push(text)
      return
    }
    // `$$` alone (or followed by TeX) opens a display block, unless the same line closes it.
    if (MATH_OPEN.test(text) && !/\$\$.*\$\$/.test(text)) {
      open('math', line)
      current!.lines.push(text)
      return
    }
    if (current?.kind !== 'prose') open('prose', line)
    current!.lines.push(text)
  })
  return blocks
}

/** Inline spans that are not prose; the code span's backtick run is the one group (`\1`). */
const INLINE = new RegExp(
  [
    String.raw`\[[^[\]\n]*\]\([^()\s]*(?:\s+"[^"]*")?\)`, // a link: its text and address
    String.raw`(\`+)[\s\S]*?(?<!\`)\1(?!\`)`, // a code span
    String.raw`\$\$[\s\S]+?\$\$`, // display math within a line
    String.raw`\$(?=\S)(?:\\.|[^$\\])+?(?<=\S)\$(?!\d)`, // inline math
    String.raw`<!--[\s\S]*?-->`, // an HTML comment
    String.raw`<[A-Za-z/!][^<>\n]*>`, // an HTML tag or an autolink
    String.raw`\\[\\\`*_{}[\]()#+\-.!@$<>|~]`, // a backslash escape
  ].join('|'),
  'g',
)

/** Cuts prose text into prose and non-prose pieces (code spans, inline math, tags, escapes). */
export function piecesOf(text: string, line: number): Piece[] {
  const pieces: Piece[] = []
  let at = 0
  let lineAt = line
  const push = (prose: boolean, s: string) => {
    if (!s) return
    pieces.push({ prose, text: s, line: lineAt })
    lineAt += countLines(s)
  }
  for (const m of text.matchAll(INLINE)) {
    push(true, text.slice(at, m.index))
    push(false, m[0])
    at = m.index + m[0].length
  }
  push(true, text.slice(at))
  return pieces
}

export function countLines(s: string): number {
  let n = 0
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++
  return n
}
