/**
 * The RIS twin, `/posts/<slug>.ris`: one `JOUR` record, what EndNote, Zotero and most reference
 * managers import (https://en.wikipedia.org/wiki/RIS_(file_format), after the 2011 RIS
 * specification). Each line is a tag, two spaces, a hyphen, a space and the value; lines end in
 * CR LF; the record opens with `TY` and closes with `ER`, the tags between in any order.
 */
import { licenseUrl } from '../../../model/article.ts'
import type { CitedWork } from './work.ts'

/** Each tag on its own line, the lines ended by carriage return and line feed (ANSI 13 10). */
const CRLF = '\r\n'

/**
 * A value on its one line. RIS has no escaping, so nothing can be quoted: line breaks and tabs
 * fold into a space (a continuation line would be read as part of the value, or as a tag), and
 * other control characters, which the specification excludes, are dropped.
 */
export const risValue = (s: string) =>
  s
    .replace(/\p{Cc}/gu, (c) => (/\s/.test(c) ? ' ' : ''))
    .replace(/\s+/g, ' ')
    .trim()

const pad = (n: number) => String(n).padStart(2, '0')

export function risRecord(w: CitedWork): string {
  const { year, month, day } = w.issued
  const tags: Array<[string, string]> = [
    ['TY', 'JOUR'],
    ['TI', w.title],
    // One AU per author in byline order, "Last, First" (a name without a given name: its family name).
    ...w.authors.map((a): [string, string] => ['AU', a.given ? `${a.family}, ${a.given}` : a.family]),
    ['PY', String(year)],
    // YYYY/MM/DD, the specification's date form.
    ['DA', `${year}/${pad(month)}/${pad(day)}`],
    // The journal, the site's name: T2 is the 2011 specification's journal title (EndNote's, and
    // Zotero's publication title); JO, the older full journal name, is what other readers take.
    ['T2', w.journal],
    ['JO', w.journal],
    ['AB', w.abstract],
    ...w.keywords.map((k): [string, string] => ['KW', k]),
    ...(w.doi ? ([['DO', w.doi]] as Array<[string, string]>) : []),
    ['UR', w.url],
    // RIS has no licence field: N1, the notes, which every importer keeps (Zotero as a note on the
    // item). Not C1: the custom fields C1 to C8 mean something else in each record type, and
    // Zotero keeps a journal article's C1 only as its raw line in a note.
    ...(w.license ? ([['N1', `Licence: ${w.license}, ${licenseUrl(w.license)}`]] as Array<[string, string]>) : []),
  ]
  // ER closes the record, with no value after its separator.
  return `${tags.map(([tag, value]) => `${tag}  - ${risValue(value)}`).join(CRLF)}${CRLF}ER  - ${CRLF}`
}
