/**
 * The page's schema.org description of the article, a `ScholarlyArticle`
 * (https://schema.org/ScholarlyArticle) in JSON-LD, in a `<script type="application/ld+json">`
 * data block that search engines read.
 */
import { DEFAULT_IMAGE_PATH, doiUrl, licenseUrl, orcidUrl } from '../../model/article.ts'
import { articleUrl } from '../../model/article-address.ts'
import { authorUrl } from '../../model/author-address.ts'
import { jsonForScript } from '../../model/json-script.ts'
import { SITE } from '../../site/lib/site.ts'
import type { ArticleMeta } from './content.ts'
import { citedWorks } from './citation/references.ts'
import type { CslItem } from './references/bibliography.ts'

/** `cites`: the works the article cites (CSL-JSON), as schema.org's `citation`. */
export function scholarlyArticle(
  a: ArticleMeta,
  baseUrl: string,
  cites: readonly CslItem[] = [],
): Record<string, unknown> {
  const url = articleUrl(baseUrl, a.slug)
  return {
    '@context': 'https://schema.org',
    '@type': 'ScholarlyArticle',
    '@id': url,
    url,
    mainEntityOfPage: url,
    headline: a.title,
    description: a.description,
    // A person is identified by their ORCID iD's URL, as ORCID asks of linked data.
    author: a.authors.map((p) => ({
      '@type': 'Person',
      ...(p.orcid ? { '@id': orcidUrl(p.orcid) } : {}),
      name: p.name,
      url: authorUrl(baseUrl, p),
      ...(p.affiliation ? { affiliation: { '@type': 'Organization', name: p.affiliation } } : {}),
    })),
    datePublished: a.date.slice(0, 10),
    dateModified: a.lastModified ?? a.date,
    ...(a.doi
      ? { identifier: { '@type': 'PropertyValue', propertyID: 'DOI', value: a.doi }, sameAs: doiUrl(a.doi) }
      : {}),
    ...(a.license ? { license: licenseUrl(a.license) } : {}),
    publisher: { '@type': 'Organization', name: SITE.name, url: baseUrl },
    isAccessibleForFree: true,
    image: new URL(a.image ?? DEFAULT_IMAGE_PATH, baseUrl).href,
    keywords: a.tags,
    inLanguage: 'en',
    ...(cites.length ? { citation: citedWorks(cites) } : {}),
  }
}

export { jsonForScript }

export const jsonLdScript = (a: ArticleMeta, baseUrl: string, cites: readonly CslItem[] = []) =>
  `<script type="application/ld+json">${jsonForScript(scholarlyArticle(a, baseUrl, cites))}</script>`
