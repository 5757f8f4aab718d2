/**
 * An article as a citation sees it: the one record that the BibTeX and CSL-JSON twins, the
 * Highwire meta tags and the text style are written from, so that they always agree.
 */
import { doiUrl } from '../../../model/article.ts'
import { SITE } from '../../../site/lib/site.ts'
import type { ArticleMeta } from '../content.ts'
import { splitName, type PersonName } from './names.ts'
import { articleUrl } from '../../../model/article-address.ts'

/** An author as a citation names them: the name split, with their ORCID iD and affiliation when given. */
export interface CitedAuthor extends PersonName {
  orcid?: string
  affiliation?: string
}

export interface CitedWork {
  /** The citation key: the slug. */
  key: string
  title: string
  /** Byline order, at least one. */
  authors: CitedAuthor[]
  /** Where it is published: the site's name. */
  journal: string
  issued: { year: number; month: number; day: number }
  /** The article page, absolute. */
  url: string
  doi?: string
  /** SPDX identifier of the licence. */
  license?: string
  abstract: string
  keywords: string[]
}

/** Runs of whitespace (a folded YAML line, a tab) as one space: citations are single-line fields. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()

export function citedWork(
  a: Pick<ArticleMeta, 'slug' | 'title' | 'description' | 'date' | 'authors' | 'tags' | 'doi' | 'license'>,
  baseUrl: string,
): CitedWork {
  return {
    key: a.slug,
    title: oneLine(a.title),
    authors: a.authors.map((p) => ({
      ...splitName(oneLine(p.name)),
      ...(p.orcid ? { orcid: p.orcid } : {}),
      ...(p.affiliation ? { affiliation: oneLine(p.affiliation) } : {}),
    })),
    journal: SITE.name,
    issued: { year: Number(a.date.slice(0, 4)), month: Number(a.date.slice(5, 7)), day: Number(a.date.slice(8, 10)) },
    url: articleUrl(baseUrl, a.slug),
    ...(a.doi !== undefined ? { doi: a.doi } : {}),
    ...(a.license !== undefined ? { license: a.license } : {}),
    abstract: oneLine(a.description),
    keywords: a.tags,
  }
}

/** The link a citation points a reader to: the DOI's when there is one, else the page. */
export const citedLink = (w: CitedWork) => (w.doi ? doiUrl(w.doi) : w.url)
