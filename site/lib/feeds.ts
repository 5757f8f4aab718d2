/**
 * The site's feeds, written as strings: RSS 2.0 (`/rss.xml`, with `dc:creator`, `atom:link
 * rel="self"` and `lastBuildDate`, as feed validators ask) and Atom 1.0 (`/atom.xml`, RFC 4287).
 * One author's page has an Atom feed of their articles too (`/authors/<slug>/atom.xml`).
 * Both carry the newest FEED_ENTRIES published articles, newest first, from the articles
 * manifest: a feed is a window on what is new that readers poll, not an archive (RFC 5005 §1;
 * the archive is the sitemap, llms.txt and the API's list), so its size and the build's work on
 * it do not grow with the site. The dates they carry come from the articles, never from the
 * clock, so a rebuild of the same content writes the same bytes.
 */
import { doiUrl, orcidUrl } from '../../model/article.ts'
import { escapeXml } from '../../model/xml-text.ts'
import { articlePath, markdownPath, type Article } from './articles'
import { SITE } from './site'

export const FEEDS = {
  rss: { path: '/rss.xml', type: 'application/rss+xml', title: `${SITE.name} (RSS)` },
  atom: { path: '/atom.xml', type: 'application/atom+xml', title: `${SITE.name} (Atom)` },
} as const

export { escapeXml }

/** Entries in each feed: the newest articles. */
export const FEED_ENTRIES = 50

const updatedOf = (a: Article) => a.data.lastModified ?? a.data.date

/** When the feed last changed: its newest article's last change (the build time of an empty site). */
function feedUpdated(articles: readonly Article[]): Date {
  let newest: Date | undefined
  for (const a of articles) if (!newest || updatedOf(a) > newest) newest = updatedOf(a)
  return newest ?? new Date()
}

export function rssFeed(all: readonly Article[], site: URL): string {
  const articles = all.slice(0, FEED_ENTRIES)
  const abs = (path: string) => escapeXml(new URL(path, site).href)
  const items = articles.map((a) =>
    [
      '<item>',
      `<title>${escapeXml(a.data.title)}</title>`,
      `<link>${abs(articlePath(a.id))}</link>`,
      `<guid isPermaLink="true">${abs(articlePath(a.id))}</guid>`,
      `<description>${escapeXml(a.data.description)}</description>`,
      `<pubDate>${a.data.date.toUTCString()}</pubDate>`,
      // One dc:creator per author, in byline order (DCMI Metadata Terms, "creator").
      ...a.data.authors.map((p) => `<dc:creator>${escapeXml(p.name)}</dc:creator>`),
      ...a.data.tags.map((t) => `<category>${escapeXml(t)}</category>`),
      '</item>',
    ].join(''),
  )
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${escapeXml(SITE.name)}</title>`,
    `<link>${abs('/')}</link>`,
    `<description>${escapeXml(SITE.tagline)}</description>`,
    '<language>en</language>',
    `<lastBuildDate>${feedUpdated(articles).toUTCString()}</lastBuildDate>`,
    `<atom:link href="${abs(FEEDS.rss.path)}" rel="self" type="${FEEDS.rss.type}"/>`,
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n')
}

/** What an Atom feed is of: the whole site, or one author's articles. */
export interface FeedChannel {
  title: string
  subtitle: string
  /** The feed's own path, and the page it is the feed of. */
  self: string
  page: string
}

const SITE_CHANNEL: FeedChannel = { title: SITE.name, subtitle: SITE.tagline, self: FEEDS.atom.path, page: '/' }

export function atomFeed(all: readonly Article[], site: URL, channel: FeedChannel = SITE_CHANNEL): string {
  const articles = all.slice(0, FEED_ENTRIES)
  const abs = (path: string) => escapeXml(new URL(path, site).href)
  const entries = articles.map((a) =>
    [
      '<entry>',
      `<title>${escapeXml(a.data.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${abs(articlePath(a.id))}"/>`,
      `<link rel="alternate" type="text/markdown" href="${abs(markdownPath(a.id))}"/>`,
      ...(a.data.doi ? [`<link rel="related" href="${escapeXml(doiUrl(a.data.doi))}" title="DOI"/>`] : []),
      `<id>${abs(articlePath(a.id))}</id>`,
      `<published>${a.data.date.toISOString()}</published>`,
      `<updated>${updatedOf(a).toISOString()}</updated>`,
      // One atom:author per author (RFC 4287 §4.2.1), with their ORCID iD's page as atom:uri.
      ...a.data.authors.map((p) => {
        const uri = p.orcid ? `<uri>${escapeXml(orcidUrl(p.orcid))}</uri>` : ''
        return `<author><name>${escapeXml(p.name)}</name>${uri}</author>`
      }),
      `<summary>${escapeXml(a.data.description)}</summary>`,
      ...a.data.tags.map((t) => `<category term="${escapeXml(t)}"/>`),
      '</entry>',
    ].join(''),
  )
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `<title>${escapeXml(channel.title)}</title>`,
    `<subtitle>${escapeXml(channel.subtitle)}</subtitle>`,
    `<id>${abs(channel.page)}</id>`,
    `<updated>${feedUpdated(articles).toISOString()}</updated>`,
    `<link rel="self" type="${FEEDS.atom.type}" href="${abs(channel.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${abs(channel.page)}"/>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n')
}
