/**
 * The citation shown in the Cite box, in APA 7's form for a journal article: "Family, G. (Year).
 * Title. *Journal*. link". Written by hand, not by a CSL processor: it runs for every page of
 * every build, and the tests check it against citeproc's APA.
 */
import { escapeHtml } from '../html.ts'
import type { PersonName } from './names.ts'
import { citedLink, type CitedWork } from './work.ts'

/** "Jean-Paul Marie" → "J.-P. M."; a word without a letter ("&") gives no initial. */
const initials = (given: string) =>
  given
    .split(' ')
    .map((word) =>
      word
        .split('-')
        .map((part) => /\p{L}/u.exec(part)?.[0])
        .filter(Boolean)
        .map((letter) => `${letter}.`)
        .join('-'),
    )
    .filter(Boolean)
    .join(' ')

const apaName = (n: PersonName) => (n.given ? `${n.family}, ${initials(n.given)}` : n.family)

/**
 * APA 7 §9.8: up to 20 authors, commas between them (after each inverted name) and "&" before
 * the last; past 20, the first 19, an ellipsis, and the last.
 */
function apaAuthors(names: string[]): string {
  if (names.length === 1) return names[0]!
  if (names.length > 20) return `${names.slice(0, 19).join(', ')}, . . . ${names.at(-1)}`
  return `${names.slice(0, -1).join(', ')}, & ${names.at(-1)}`
}

/** A period after a part, unless it already ends in one (or in ? or !). */
const sentence = (s: string) => (/[.?!]$/.test(s) ? s : `${s}.`)

export interface ApaCitation {
  text: string
  /** The same, escaped, with the journal in italics. */
  html: string
}

export function apaCitation(w: CitedWork): ApaCitation {
  const author = sentence(apaAuthors(w.authors.map(apaName)))
  const year = `(${w.issued.year}).`
  const title = sentence(w.title)
  const journal = sentence(w.journal)
  const link = citedLink(w)
  return {
    text: `${author} ${year} ${title} ${journal} ${link}`,
    html:
      `${escapeHtml(author)} ${year} ${escapeHtml(title)} ` +
      `<i>${escapeHtml(w.journal)}</i>${journal.slice(w.journal.length)} ${escapeHtml(link)}`,
  }
}
