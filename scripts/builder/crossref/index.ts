/**
 * `/posts/<slug>.crossref.xml`: the deposit that registers an article's DOI with Crossref, in
 * deposit schema 5.3.1 (https://data.crossref.org/reports/help/schema_doc/5.3.1/index.html).
 * Each article is a `posted_content` of type `working_paper`: the site publishes its articles
 * itself, with no journal ISSN, volume or issue, which a `journal_article` needs a journal
 * record for; a working paper is research a group issues on its own. The deposit's
 * `doi_batch_id` and `timestamp` come from the article, so that a rebuild writes the same
 * bytes: the id from its content hash, the timestamp from the date of its last change (Crossref
 * takes a deposit only when its timestamp is newer than the last one's: record a change in
 * `changes` before depositing again).
 */
import { createHash } from 'node:crypto'
import { isCrossrefDoi, licenseUrl } from '../../../model/article.ts'
import { orcidUrl } from '../../../model/research.ts'
import type { ArticleMeta } from '../content.ts'
import { citedWork, type CitedAuthor } from '../citation/work.ts'
import type { CslItem } from '../references/bibliography.ts'
import { el, optionalText, textEl } from '../jats/xml.ts'
import type { Depositor } from './depositor.ts'

export type CrossrefMeta = Pick<
  ArticleMeta,
  'slug' | 'hash' | 'title' | 'description' | 'date' | 'authors' | 'tags' | 'doi' | 'license' | 'changes'
>

const NAMESPACES = {
  xmlns: 'http://www.crossref.org/schema/5.3.1',
  'xmlns:ai': 'http://www.crossref.org/AccessIndicators.xsd',
  'xmlns:jats': 'http://www.ncbi.nlm.nih.gov/JATS1',
  'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
  'xsi:schemaLocation': 'http://www.crossref.org/schema/5.3.1 https://www.crossref.org/schemas/crossref5.3.1.xsd',
}

/** The date of the article's last change, YYYY-MM-DD: its publication date or its newest change. */
const lastChange = (m: CrossrefMeta) =>
  [m.date.slice(0, 10), ...(m.changes ?? []).map((c) => c.date.slice(0, 10))].sort().at(-1)!

/** The deposit's timestamp (a number Crossref compares): the last change's date, YYYYMMDDhhmmss at midnight. */
export const depositTimestamp = (m: CrossrefMeta) => `${lastChange(m).replace(/-/g, '')}000000`

/** The deposit's id: the slug's start and the article's content hash, within the schema's 100 characters. */
export const depositId = (m: CrossrefMeta) =>
  `${m.slug.slice(0, 60)}-${createHash('sha256').update(`${m.doi}\n${m.hash}`).digest('hex').slice(0, 32)}`

function person(a: CitedAuthor, i: number): string {
  return el(
    'person_name',
    { sequence: i === 0 ? 'first' : 'additional', contributor_role: 'author' },
    optionalText('given_name', a.given),
    textEl('surname', a.family),
    a.affiliation ? el('affiliations', {}, el('institution', {}, textEl('institution_name', a.affiliation))) : '',
    a.orcid ? textEl('ORCID', orcidUrl(a.orcid)) : '',
  )
}

const dateParts = (iso: string) =>
  [textEl('month', iso.slice(5, 7)), textEl('day', iso.slice(8, 10)), textEl('year', iso.slice(0, 4))].join('')

/** One citation per reference: its DOI where known, else its text as the References list shows it. */
function citationList(items: readonly CslItem[], entries: ReadonlyMap<string, string>): string {
  if (items.length === 0) return ''
  const citations = items.map((item, i) => {
    const text = entries.get(item.id) ?? item.title ?? item.id
    const content = isCrossrefDoi(item.DOI) ? textEl('doi', item.DOI) : textEl('unstructured_citation', text)
    return el('citation', { key: `ref${i + 1}` }, content)
  })
  return el('citation_list', {}, ...citations)
}

/** The deposit of an article with a DOI Crossref registers; undefined for any other. */
export function crossrefDeposit(
  meta: CrossrefMeta,
  references: { items: readonly CslItem[]; entries: ReadonlyMap<string, string> },
  depositor: Depositor,
  baseUrl: string,
): string | undefined {
  if (!isCrossrefDoi(meta.doi)) return undefined
  const work = citedWork(meta, baseUrl)
  const head = el(
    'head',
    {},
    textEl('doi_batch_id', depositId(meta)),
    textEl('timestamp', depositTimestamp(meta)),
    el('depositor', {}, textEl('depositor_name', depositor.name), textEl('email_address', depositor.email)),
    textEl('registrant', depositor.registrant),
  )
  const license = work.license
    ? el(
        'ai:program',
        { name: 'AccessIndicators' },
        textEl('ai:license_ref', licenseUrl(work.license), { applies_to: 'vor', start_date: meta.date.slice(0, 10) }),
      )
    : ''
  const posted = el(
    'posted_content',
    { type: 'working_paper', language: 'en' },
    el('contributors', {}, ...work.authors.map(person)),
    el('titles', {}, textEl('title', work.title)),
    el('posted_date', { media_type: 'online' }, dateParts(meta.date)),
    el('jats:abstract', {}, textEl('jats:p', work.abstract)),
    license,
    el('doi_data', {}, textEl('doi', meta.doi), textEl('resource', work.url)),
    citationList(references.items, references.entries),
  )
  const batch = el('doi_batch', { ...NAMESPACES, version: '5.3.1' }, head, el('body', {}, posted))
  return `<?xml version="1.0" encoding="UTF-8"?>\n${batch}\n`
}
