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

/** A period after a part, unless it already ends in one (or in ? or !). */
const sentence = (s: string) => (/[.?!]$/.test(s) ? s : `${s}.`)

export interface ApaCitation {
  text: string
  /** The same, escaped, with the journal in italics. */
  html: string
}

export function apaCitation(w: CitedWork): ApaCitation {
  const author = sentence(apaName(w.author))
  const year = `(${w.issued.year}).`
  const title = sentence(w.title)
  const journal = sentence(w.journal)
  const link = citedLink(w)
  return {
    text: `${author} ${year} ${title} ${journal} ${link}`,
    html: `${escapeHtml(author)} ${year} ${escapeHtml(title)} <i>${escapeHtml(w.journal)}</i>${journal.slice(w.journal.length)} ${escapeHtml(link)}`,
  }
}
