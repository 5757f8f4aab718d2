/**
 * Reads an article's front matter, the YAML between its `---` lines, as YAML 1.2 with the core
 * schema (https://yaml.org/spec/1.2.2/#103-core-schema): a date stays the text the writer wrote,
 * which the model checks as a calendar day, and is never a `Date` rolled over to another day.
 * A YAML error names the line of the file where the problem starts: an unclosed quote or
 * bracket at the line that opens it, not where the parser ran out of text.
 */
import { type Document, isCollection, isScalar, LineCounter, parseDocument, visit, type YAMLError } from 'yaml'

/** The front matter block and the body after it (CRLF line ends as well as LF). */
export const FRONTMATTER = /^\uFEFF?---\r?\n(?:([\s\S]*?)\r?\n)?---(?:\r?\n|$)/

export type FrontMatterResult = { data: Record<string, unknown> } | { problem: { message: string; fix: string } }

/** The fields of an article's front matter, or the problem with it. No front matter is no fields. */
export function readFrontMatter(source: string): FrontMatterResult {
  const block = FRONTMATTER.exec(source)
  if (!block) return { data: {} }
  const yaml = block[1] ?? ''
  const lines = new LineCounter()
  const doc = parseDocument(yaml, { lineCounter: lines, prettyErrors: false })
  // The block starts on the file's second line, after the opening `---`.
  const lineOf = (offset: number) => lines.linePos(offset).line + 1
  const error = doc.errors[0]
  if (error) return { problem: yamlProblem(doc, error, lineOf) }
  let data: unknown
  try {
    data = doc.toJS()
  } catch (e) {
    // An alias to no anchor, or aliases past the library's limit (maxAliasCount).
    const reason = e instanceof Error ? e.message : String(e)
    return { problem: { message: `the frontmatter is not valid YAML: ${reason}`, fix: 'write each value out' } }
  }
  if (data === null || data === undefined) return { data: {} }
  if (typeof data !== 'object' || Array.isArray(data))
    return {
      problem: {
        message: 'the frontmatter is not a set of fields',
        fix: 'write one "name: value" per line between the --- lines, like "title: My article"',
      },
    }
  return { data: data as Record<string, unknown> }
}

const CHECK = 'check quotes, brackets and indentation between the --- lines'

function yamlProblem(doc: Document, error: YAMLError, lineOf: (offset: number) => number) {
  const at = error.pos[0]
  const opened = openedAt(doc, at)
  if (opened && (lineOf(opened.start) < lineOf(at) || error.code === 'MISSING_CHAR')) {
    const [what, line] = [opened.kind === 'quote' ? 'the quote' : 'the bracket', lineOf(opened.start)]
    const orEscape = opened.kind === 'quote' ? ", or escape a quote inside it (\\\" in \"…\", '' in '…')" : ''
    return {
      message: `the frontmatter is not valid YAML: ${what} opened on line ${line} is not closed`,
      fix: `close it on line ${line}${orEscape}`,
    }
  }
  // The library's message says where in the block; the writer reads lines of the file.
  const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
  return { message: `the frontmatter is not valid YAML on line ${lineOf(at)}: ${reason}`, fix: CHECK }
}

/**
 * The innermost quoted text or flow collection (`[…]`, `{…}`) that starts before `offset` and
 * runs on to it: an unclosed one swallows the lines after it, and the error shows at their end.
 */
function openedAt(doc: Document, offset: number): { start: number; kind: 'quote' | 'bracket' } | undefined {
  let found: { start: number; kind: 'quote' | 'bracket' } | undefined
  visit(doc, (_key, node) => {
    const range = (isScalar(node) || isCollection(node)) && node.range
    if (!range || range[0] > offset || range[1] < offset) return
    const quoted = isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')
    const flow = isCollection(node) && node.flow === true
    if ((quoted || flow) && (!found || range[0] >= found.start))
      found = { start: range[0], kind: quoted ? 'quote' : 'bracket' }
  })
  return found
}
