/**
 * The repository's items as OAI-PMH sees them: one record per article, its datestamp the
 * article's last change (`lastModified`, at seconds granularity), its sets its tags, its
 * metadata unqualified Dublin Core (§3.4, oai_dc).
 */
import { doiUrl, licenseUrl, type Post } from '../../model/article.ts'
import type { PostIndex } from '../../post-index/post-index.ts'
import type { HarvestPosition, ListQuery } from './tokens.ts'
import { datestamp, element } from './xml.ts'

export interface HarvestRecord {
  post: Post
  /** The datestamp, in seconds since the epoch. */
  sec: number
  sets: string[]
}

export interface Catalog {
  /** Every record in the harvest order: datestamp, then slug. */
  records: HarvestRecord[]
  bySlug: Map<string, HarvestRecord>
  /** The records of each set, in the harvest order. */
  bySet: Map<string, HarvestRecord[]>
  /** Every setSpec, sorted. */
  sets: string[]
}

/** §3.4: the one format every item has. */
export const OAI_DC = {
  metadataPrefix: 'oai_dc',
  schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
  metadataNamespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
} as const

/** setSpecType of the OAI-PMH schema: a tag that is not one is left out of the sets. */
export const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(?::[A-Za-z0-9\-_.!~*'()]+)*$/

const before = (a: HarvestPosition, b: HarvestPosition) => a.sec < b.sec || (a.sec === b.sec && a.slug < b.slug)

// An index never changes (a rebuild swaps in another): its catalog is made on first use.
const catalogs = new WeakMap<PostIndex, Catalog>()

export function catalogOf(index: PostIndex): Catalog {
  let catalog = catalogs.get(index)
  if (!catalog) {
    const { posts } = JSON.parse(index.latest(index.size).body.toString()) as { posts: Post[] }
    const records = posts
      .map((post) => ({
        post,
        sec: Math.floor(Date.parse(post.lastModified) / 1000),
        sets: [...new Set(post.tags)].filter((t) => SET_SPEC.test(t)).sort(),
      }))
      .sort((a, b) => (before({ sec: a.sec, slug: a.post.slug }, { sec: b.sec, slug: b.post.slug }) ? -1 : 1))
    const bySet = new Map<string, HarvestRecord[]>()
    for (const r of records)
      for (const s of r.sets) {
        const members = bySet.get(s)
        if (members) members.push(r)
        else bySet.set(s, [r])
      }
    catalog = {
      records,
      bySlug: new Map(records.map((r) => [r.post.slug, r])),
      bySet,
      sets: [...bySet.keys()].sort(),
    }
    catalogs.set(index, catalog)
  }
  return catalog
}

/** The first place in `list` where `holds` is true (it is false, then true, along the list). */
function firstWhere(list: readonly HarvestRecord[], holds: (r: HarvestRecord) => boolean): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (holds(list[mid]!)) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * A page of the records a list query selects, after `after`: up to `size` records, whether more
 * follow, and how many the whole list holds (§3.5.1 completeListSize).
 */
export function selectPage(catalog: Catalog, query: ListQuery, after: HarvestPosition | undefined, size: number) {
  const list = query.set === undefined ? catalog.records : (catalog.bySet.get(query.set) ?? [])
  const { fromSec, untilSec } = query
  const lo = fromSec === undefined ? 0 : firstWhere(list, (r) => r.sec >= fromSec)
  const hi = untilSec === undefined ? list.length : firstWhere(list, (r) => r.sec > untilSec)
  const start = after
    ? Math.max(
        lo,
        firstWhere(list, (r) => before(after, { sec: r.sec, slug: r.post.slug })),
      )
    : lo
  const end = Math.min(hi, start + size)
  return { records: list.slice(start, end), more: end < hi, total: Math.max(0, hi - lo) }
}

/** `oai:<host>:<slug>`, after the oai-identifier scheme: the host names the repository. */
export const oaiIdentifier = (host: string, slug: string) => `oai:${host}:${slug}`

/** The slug an identifier of this repository names, or undefined for any other identifier. */
export function slugOf(host: string, identifier: string): string | undefined {
  const prefix = `oai:${host}:`
  return identifier.startsWith(prefix) ? identifier.slice(prefix.length) : undefined
}

/** §2.5: the record's header. */
export function headerXml(host: string, r: HarvestRecord): string {
  return [
    '<header>',
    element('identifier', oaiIdentifier(host, r.post.slug)),
    element('datestamp', datestamp(r.sec * 1000)),
    ...r.sets.map((s) => element('setSpec', s)),
    '</header>',
  ].join('')
}

const DC_ROOT =
  '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"' +
  ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
  ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">'

/**
 * The article as unqualified Dublin Core (§3.4 and the DCMI element set): one creator per author
 * in byline order, the DOI's URL and the page's URL as identifiers, the licence's URL as rights,
 * the publication date, one subject per tag. The index holds no language, so none is claimed.
 */
export function oaiDcXml(publisher: string, post: Post): string {
  const dc = (name: string, text: string) => element(`dc:${name}`, text)
  return [
    DC_ROOT,
    dc('title', post.title),
    ...post.authors.map((a) => dc('creator', a.name)),
    ...post.tags.map((t) => dc('subject', t)),
    dc('description', post.description),
    dc('publisher', publisher),
    dc('date', post.date),
    // The DCMI Type Vocabulary's term for an article.
    dc('type', 'Text'),
    ...(post.doi ? [dc('identifier', doiUrl(post.doi))] : []),
    dc('identifier', post.url),
    ...(post.license ? [dc('rights', licenseUrl(post.license))] : []),
    '</oai_dc:dc>',
  ].join('')
}

/** §2.5: a record, its header and its metadata. */
export const recordXml = (host: string, publisher: string, r: HarvestRecord) =>
  `<record>${headerXml(host, r)}<metadata>${oaiDcXml(publisher, r.post)}</metadata></record>`
