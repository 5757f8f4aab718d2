/**
 * `/posts/<slug>.jats.xml`: the article in JATS 1.4 (ANSI/NISO Z39.96-2024), the Journal
 * Archiving and Interchange tag set (https://jats.nlm.nih.gov/archiving/1.4/). Archiving, not
 * Publishing: Publishing requires the journal's ISSN, which a publication may not have, and
 * Archiving is the tag set PubMed Central and Pandoc's `jats` writer use for exchange. The
 * front holds the metadata (title, contributors with ORCID iDs and affiliations, date, licence,
 * the history of changes, abstract, keywords), the body the rendered article, the back the
 * references.
 */
import { doiUrl, licenseUrl } from '../../../model/article.ts'
import { orcidUrl } from '../../../model/research.ts'
import { SITE } from '../../../site/lib/site.ts'
import type { ArticleMeta } from '../content.ts'
import { citedWork, type CitedAuthor } from '../citation/work.ts'
import type { CslItem } from '../references/bibliography.ts'
export { jatsBody } from './body.ts'
import { refList } from './refs.ts'
import { el, optionalText, textEl } from './xml.ts'

/** What the JATS file is made from: the article's metadata and its rendering. */
export interface JatsSource {
  meta: Pick<
    ArticleMeta,
    'slug' | 'title' | 'description' | 'date' | 'authors' | 'tags' | 'doi' | 'license' | 'changes'
  >
  /** The rendered body in JATS, and the References list's entries as the page shows them (body.ts). */
  body: { body: string; entries: ReadonlyMap<string, string> }
  references: readonly CslItem[]
}

const DOCTYPE =
  '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD with MathML3 ' +
  'v1.4 20241031//EN" "https://jats.nlm.nih.gov/archiving/1.4/JATS-archivearticle1-4-mathml3.dtd">'

/** A calendar date (YYYY-MM-DD…) as JATS dates are written: its parts, and the ISO date as an attribute. */
const date = (name: string, iso: string, attrs: Record<string, string>) =>
  el(
    name,
    { ...attrs, 'iso-8601-date': iso.slice(0, 10) },
    textEl('day', iso.slice(8, 10)),
    textEl('month', iso.slice(5, 7)),
    textEl('year', iso.slice(0, 4)),
  )

function contributors(authors: readonly CitedAuthor[]): { contribs: string; affs: string } {
  // One `aff` per distinct affiliation, each author pointing at theirs.
  const affs = [...new Set(authors.flatMap((a) => (a.affiliation ? [a.affiliation] : [])))]
  const contribs = authors.map((a) =>
    el(
      'contrib',
      { 'contrib-type': 'author' },
      a.orcid ? textEl('contrib-id', orcidUrl(a.orcid), { 'contrib-id-type': 'orcid' }) : '',
      el('name', {}, textEl('surname', a.family), optionalText('given-names', a.given)),
      a.affiliation ? el('xref', { 'ref-type': 'aff', rid: `aff${affs.indexOf(a.affiliation) + 1}` }) : '',
    ),
  )
  return {
    contribs: el('contrib-group', {}, ...contribs),
    affs: affs.map((name, i) => el('aff', { id: `aff${i + 1}` }, textEl('institution', name))).join(''),
  }
}

/** The licence as JATS 1.4 and NISO ALI give it: its URL in `ali:license_ref`. */
const permissions = (license: string | undefined, year: string) =>
  license
    ? el(
        'permissions',
        {},
        textEl('copyright-year', year),
        el('license', {}, textEl('ali:license_ref', licenseUrl(license)), el('license-p', {}, license)),
      )
    : ''

/** The changes of the article, oldest first, as publication-history events. */
const history = (changes: ReadonlyArray<{ date: string; note: string }>) =>
  changes.length
    ? el(
        'pub-history',
        {},
        ...[...changes]
          .sort((a, b) => a.date.localeCompare(b.date))
          .map((c) =>
            el(
              'event',
              { 'event-type': 'updated' },
              textEl('event-desc', c.note),
              date('date', c.date, { 'date-type': 'updated' }),
            ),
          ),
      )
    : ''

export function jatsArticle(source: JatsSource, baseUrl: string): string {
  const { meta } = source
  const work = citedWork(meta, baseUrl)
  const { contribs, affs } = contributors(work.authors)
  const { body, entries } = source.body
  const front = el(
    'front',
    {},
    el(
      'journal-meta',
      {},
      textEl('journal-id', SITE.name, { 'journal-id-type': 'publisher-id' }),
      el('journal-title-group', {}, textEl('journal-title', SITE.name)),
      el('publisher', {}, textEl('publisher-name', SITE.name)),
    ),
    el(
      'article-meta',
      {},
      work.doi ? textEl('article-id', work.doi, { 'pub-id-type': 'doi' }) : '',
      textEl('article-id', meta.slug, { 'pub-id-type': 'publisher-id' }),
      el('title-group', {}, textEl('article-title', work.title)),
      contribs,
      affs,
      date('pub-date', meta.date, { 'publication-format': 'electronic', 'date-type': 'pub' }),
      history(meta.changes ?? []),
      permissions(work.license, meta.date.slice(0, 4)),
      el('self-uri', { 'xlink:href': work.url }, ''),
      work.doi ? el('self-uri', { 'xlink:href': doiUrl(work.doi), 'content-type': 'doi' }, '') : '',
      el('abstract', {}, textEl('p', work.abstract)),
      work.keywords.length ? el('kwd-group', {}, ...work.keywords.map((k) => textEl('kwd', k))) : '',
    ),
  )
  const back = source.references.length ? el('back', {}, refList(source.references, entries)) : ''
  const article = el(
    'article',
    {
      'xmlns:ali': 'http://www.niso.org/schemas/ali/1.0/',
      'xmlns:mml': 'http://www.w3.org/1998/Math/MathML',
      'xmlns:xlink': 'http://www.w3.org/1999/xlink',
      'article-type': 'research-article',
      'dtd-version': '1.4',
      'xml:lang': 'en',
    },
    front,
    body,
    back,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n${DOCTYPE}\n${article}\n`
}
