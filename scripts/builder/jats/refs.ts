/**
 * An article's references in JATS: one `ref` per CSL-JSON item, its fields as an
 * `element-citation` (https://jats.nlm.nih.gov/archiving/tag-library/1.4/element/element-citation.html)
 * and the rendered entry, as the References list shows it, as a `mixed-citation`.
 */
import type { CslItem } from '../references/bibliography.ts'
import { el, optionalText, textEl } from './xml.ts'

interface CslName {
  family?: string
  given?: string
  literal?: string
}

/** An XML ID (an NCName) from a citation key or a label: the characters it cannot hold as `_`. */
export const xmlId = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_')
/** The ID of a reference: the References list's, `ref-<key>`. */
export const refId = (key: string) => `ref-${xmlId(key)}`

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : undefined)
export const cslYear = (item: CslItem) =>
  (item.issued as { 'date-parts'?: number[][] } | undefined)?.['date-parts']?.[0]?.[0]
export const cslNames = (item: CslItem, role = 'author') => (item[role] as CslName[] | undefined) ?? []

/** CSL types as JATS names them (publication-type). */
const PUBLICATION_TYPES: Record<string, string> = {
  'article-journal': 'journal',
  'paper-conference': 'confproc',
  book: 'book',
  chapter: 'book',
  thesis: 'thesis',
  report: 'report',
  webpage: 'webpage',
  dataset: 'data',
  software: 'software',
  patent: 'patent',
}

const personGroup = (item: CslItem, role: 'author' | 'editor') => {
  const names = cslNames(item, role).map((n) =>
    n.family
      ? el('name', {}, textEl('surname', n.family), optionalText('given-names', n.given))
      : textEl('string-name', n.literal ?? n.given ?? ''),
  )
  return names.length ? el('person-group', { 'person-group-type': role }, ...names) : ''
}

function elementCitation(item: CslItem): string {
  const type = String(item.type ?? '')
  const title = text(item.title)
  const container = text(item['container-title'])
  const [first, last] = (text(item.page) ?? '').split(/[-–]/)
  const titles = container
    ? [optionalText(type === 'chapter' ? 'chapter-title' : 'article-title', title), textEl('source', container)]
    : [optionalText('source', title)]
  return el(
    'element-citation',
    { 'publication-type': PUBLICATION_TYPES[type] ?? 'other' },
    personGroup(item, 'author'),
    personGroup(item, 'editor'),
    ...titles,
    optionalText('year', cslYear(item)),
    optionalText('publisher-name', text(item.publisher)),
    optionalText('volume', text(item.volume)),
    optionalText('issue', text(item.issue)),
    optionalText('fpage', first?.trim()),
    optionalText('lpage', last?.trim()),
    optionalText('pub-id', item.DOI, { 'pub-id-type': 'doi' }),
    item.URL && !item.DOI ? el('ext-link', { 'ext-link-type': 'uri', 'xlink:href': item.URL }, '') : '',
  )
}

/** The `ref-list`: each item with its rendered entry (`entries`, by key) when the page has one. */
export function refList(items: readonly CslItem[], entries: ReadonlyMap<string, string>): string {
  if (items.length === 0) return ''
  const refs = items.map((item) => {
    const entry = entries.get(item.id)
    return el('ref', { id: refId(item.id) }, elementCitation(item), entry ? textEl('mixed-citation', entry) : '')
  })
  return el('ref-list', {}, textEl('title', 'References'), ...refs)
}
