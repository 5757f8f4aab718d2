/**
 * The BibTeX twin, `/posts/<slug>.bib`: one `@article` entry (the site is the journal, as for
 * other web-native research publications), readable by BibTeX and biblatex alike. Text is
 * escaped for LaTeX; the title keeps the writer's capitals; `url` and `doi` are verbatim fields.
 */
import type { CitedWork } from './work.ts'
import type { PersonName } from './names.ts'

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

const LATEX: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
}
const LATEX_SPECIAL = /[\\{}$&%#_^~<>]/g

/** Text as LaTeX prints it literally. Non-ASCII stays UTF-8, which biber and modern BibTeX read. */
export const escapeLatex = (s: string) => s.replace(LATEX_SPECIAL, (c) => LATEX[c]!)

/** A word "and" inside one name would split it into two authors: braces keep it a word. */
const protectAnd = (s: string) => s.replace(/(^|\s)(and)(?=\s|$)/gi, '$1{$2}')

/** `Family, Given`; a family name of several words is braced, so that BibTeX takes it whole, particles and all. */
function bibName(n: PersonName): string {
  const escaped = escapeLatex(n.family)
  const family = /\s|^and$/i.test(n.family) ? `{${escaped}}` : escaped
  if (!n.given) return family
  // A second comma would make BibTeX read the rest as "Jr" and the given names.
  const given = n.given.includes(',') ? `{${escapeLatex(n.given)}}` : protectAnd(escapeLatex(n.given))
  return `${family}, ${given}`
}

export function bibtexEntry(w: CitedWork): string {
  const { year, month, day } = w.issued
  const fields: Array<[string, string]> = [
    // BibTeX separates names with " and " (Patashnik, BibTeXing, §4); a name's own "and" is braced.
    ['author', `{${w.authors.map(bibName).join(' and ')}}`],
    ['title', `{{${escapeLatex(w.title)}}}`],
    ['journal', `{${escapeLatex(w.journal)}}`],
    ['year', `{${year}}`],
    ['month', MONTHS[month - 1]!],
    ['date', `{${year}-${pad(month)}-${pad(day)}}`],
    ['url', `{${w.url}}`],
    ...(w.doi ? ([['doi', `{${w.doi}}`]] as Array<[string, string]>) : []),
    ['abstract', `{${escapeLatex(w.abstract)}}`],
    ...(w.keywords.length ? ([['keywords', `{${w.keywords.join(', ')}}`]] as Array<[string, string]>) : []),
  ]
  return `@article{${w.key},\n${fields.map(([k, v]) => `  ${k} = ${v},`).join('\n')}\n}\n`
}

const pad = (n: number) => String(n).padStart(2, '0')
