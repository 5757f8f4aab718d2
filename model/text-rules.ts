/**
 * What text in front matter may hold. A single-line field (a title, a name, a note) is one line
 * of characters: a line break in it would start a line of its own in the markdown twin and
 * llms.txt (a forged "Canonical:" line, a forged entry), and a control character reaches the
 * page's <title>, BibTeX and RIS as is. Every text is well-formed Unicode: a lone surrogate
 * (`"\uD800"` in YAML) is no character, and the search index and UTF-8 files cannot hold it.
 */
import { z } from 'zod'

/** Line breaks: the ones YAML and Unicode define (CR, LF, NEL, LINE and PARAGRAPH SEPARATOR). */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/
/** Control characters (Unicode general category Cc: C0, DEL and C1). */
const CONTROL = /\p{Cc}/u

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** Why `v` is not one line of characters, with its fix, or undefined when it is. */
export function singleLineProblem(v: string): { message: string; fix: string } | undefined {
  if (LINE_BREAK.test(v))
    return {
      message: 'holds a line break, and this field is one line',
      fix: 'write it on one line (a "|" block or a "\\n" escape makes a line break)',
    }
  const control = CONTROL.exec(v)?.[0]
  if (control !== undefined)
    return {
      message: `holds the control character ${codePoint(control)}, which no text may hold`,
      fix: 'remove it (a "\\t", "\\0" or "\\x…" escape in a double-quoted text makes one), or use a space',
    }
  return undefined
}

/** One line of text, trimmed, of 1 to `max` characters. */
export const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((v, ctx) => {
      const problem = singleLineProblem(v)
      if (problem) ctx.addIssue({ code: 'custom', message: problem.message, params: { fix: problem.fix } })
    })

/** Where a value (parsed front matter) holds text that is not well-formed Unicode: each key path. */
export function illFormedText(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (typeof value === 'string') return value.isWellFormed() ? [] : [path]
  if (Array.isArray(value)) return value.flatMap((v, i) => illFormedText(v, [...path, i]))
  if (value === null || typeof value !== 'object' || value instanceof Date) return []
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k.isWellFormed() ? [] : [[...path, k.toWellFormed()]]),
    ...illFormedText(v, [...path, k]),
  ])
}
