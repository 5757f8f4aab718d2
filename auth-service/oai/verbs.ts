/**
 * The six verbs of OAI-PMH 2.0 (§4), each answering its element's XML from the catalog of the
 * loaded index, and the answer around it (§3.2): a refusal is the protocol's error element in an
 * HTTP 200 answer (§3.6), never an HTTP error.
 */
import { echoedArguments, readRequest, type OaiRequest } from './arguments.ts'
import { OAI_DC, catalogOf, headerXml, recordXml, selectPage, slugOf, type Catalog } from './records.ts'
import { openToken, sealToken, type HarvestPosition, type ListQuery } from './tokens.ts'
import type { PostIndex } from '../../post-index/post-index.ts'
import { OaiError, datestamp, element, errorElement, oaiDocument } from './xml.ts'

export interface Repository {
  /** The base URL of the protocol (§3.1): where requests go. */
  endpoint: string
  /** The host that names the repository in its identifiers. */
  host: string
  repositoryName: string
  adminEmail: string
  /** Records or headers per list answer; a longer list continues with a resumption token. */
  pageSize: number
  tokenLifetimeSeconds: number
  /** Seals the resumption tokens (tokens.ts). */
  tokenKey: Buffer
  posts(): PostIndex
  now(): number
}

type Handler<R extends OaiRequest> = (repo: Repository, request: R, catalog: Catalog, now: number) => string

/** The whole answer to a request given as name/value pairs, in order (a query string or a form). */
export function answerRequest(repo: Repository, pairs: readonly (readonly [string, string])[]): string {
  const now = repo.now()
  const at = new Date(now)
  let request: OaiRequest
  try {
    request = readRequest(pairs)
  } catch (e) {
    if (!(e instanceof OaiError)) throw e
    // §3.2: a badVerb or badArgument answer echoes no argument, only the base URL.
    return oaiDocument(at, repo.endpoint, undefined, errorElement(e))
  }
  const echo = echoedArguments(pairs)
  try {
    const handler = HANDLERS[request.verb] as Handler<OaiRequest>
    return oaiDocument(at, repo.endpoint, echo, handler(repo, request, catalogOf(repo.posts()), now))
  } catch (e) {
    if (!(e instanceof OaiError)) throw e
    return oaiDocument(at, repo.endpoint, echo, errorElement(e))
  }
}

/** §4.2: what the repository is; datestamps to the second, deletions not kept. */
const identify: Handler<{ verb: 'Identify' }> = (repo, _request, catalog, now) =>
  [
    '<Identify>',
    element('repositoryName', repo.repositoryName),
    element('baseURL', repo.endpoint),
    element('protocolVersion', '2.0'),
    element('adminEmail', repo.adminEmail),
    element('earliestDatestamp', datestamp(catalog.records[0] ? catalog.records[0].sec * 1000 : now)),
    // Removing an article's file removes its record: the repository keeps no trace of deletions.
    element('deletedRecord', 'no'),
    element('granularity', 'YYYY-MM-DDThh:mm:ssZ'),
    '</Identify>',
  ].join('')

const recordOf = (repo: Repository, catalog: Catalog, identifier: string) => {
  const slug = slugOf(repo.host, identifier)
  const record = slug === undefined ? undefined : catalog.bySlug.get(slug)
  if (!record) throw new OaiError('idDoesNotExist', `No item of this repository has the identifier ${identifier}.`)
  return record
}

const disseminable = (metadataPrefix: string) => {
  if (metadataPrefix !== OAI_DC.metadataPrefix)
    throw new OaiError('cannotDisseminateFormat', `Records are given as ${OAI_DC.metadataPrefix} only.`)
}

/** §4.4: every item has oai_dc, so noMetadataFormats never arises. */
const listMetadataFormats: Handler<{ verb: 'ListMetadataFormats'; identifier?: string }> = (repo, request, catalog) => {
  if (request.identifier !== undefined) recordOf(repo, catalog, request.identifier)
  return [
    '<ListMetadataFormats><metadataFormat>',
    element('metadataPrefix', OAI_DC.metadataPrefix),
    element('schema', OAI_DC.schema),
    element('metadataNamespace', OAI_DC.metadataNamespace),
    '</metadataFormat></ListMetadataFormats>',
  ].join('')
}

/** §4.6: the tags as sets, all in one answer (there are few), so a resumption token is never valid here. */
const listSets: Handler<{ verb: 'ListSets'; resumptionToken?: string }> = (_repo, request, catalog) => {
  if (request.resumptionToken !== undefined)
    throw new OaiError('badResumptionToken', 'ListSets answers every set at once: it issues no resumption tokens.')
  if (catalog.sets.length === 0) throw new OaiError('noSetHierarchy', 'No article has a tag: there are no sets.')
  const sets = catalog.sets.map((s) => `<set>${element('setSpec', s)}${element('setName', s)}</set>`)
  return `<ListSets>${sets.join('')}</ListSets>`
}

/** §4.1 */
const getRecord: Handler<{ verb: 'GetRecord'; identifier: string; metadataPrefix: string }> = (
  repo,
  request,
  catalog,
) => {
  const record = recordOf(repo, catalog, request.identifier)
  disseminable(request.metadataPrefix)
  return `<GetRecord>${recordXml(repo.host, repo.repositoryName, record)}</GetRecord>`
}

type ListRequest = { verb: ListQuery['verb']; resumptionToken: string } | { verb: ListQuery['verb']; query: ListQuery }

/**
 * §4.3 and §4.5: a page of the list in the harvest order (datestamp, then identifier), and a
 * resumption token for the rest (§3.5): the query and the position after the page's last record,
 * so that a rebuild between two pages neither repeats nor skips a record that stayed.
 */
const list: Handler<ListRequest> = (repo, request, catalog, now) => {
  const nowSec = Math.floor(now / 1000)
  let query: ListQuery
  let after: HarvestPosition | undefined
  let cursor = 0
  if ('resumptionToken' in request) {
    const state = openToken(repo.tokenKey, request.resumptionToken, request.verb, nowSec)
    ;({ query, after, cursor } = state)
  } else {
    query = request.query
    disseminable(query.metadataPrefix)
    if (query.set !== undefined && catalog.sets.length === 0)
      throw new OaiError('noSetHierarchy', 'No article has a tag: there are no sets.')
  }
  const page = selectPage(catalog, query, after, repo.pageSize)
  if (page.records.length === 0)
    throw new OaiError('noRecordsMatch', 'No record matches the arguments (from, until, set).')
  const items = page.records.map((r) =>
    query.verb === 'ListRecords' ? recordXml(repo.host, repo.repositoryName, r) : headerXml(repo.host, r),
  )
  let resumption = ''
  if (page.more || after !== undefined) {
    const last = page.records.at(-1)!
    const expiresSec = nowSec + repo.tokenLifetimeSeconds
    const next = page.more
      ? sealToken(repo.tokenKey, {
          query,
          after: { sec: last.sec, slug: last.post.slug },
          cursor: cursor + page.records.length,
          expiresSec,
        })
      : ''
    // §3.5: the last page of a resumed list carries an empty token.
    resumption = element('resumptionToken', next, {
      expirationDate: page.more ? datestamp(expiresSec * 1000) : undefined,
      completeListSize: String(page.total),
      cursor: String(cursor),
    })
  }
  return `<${query.verb}>${items.join('')}${resumption}</${query.verb}>`
}

const HANDLERS = {
  Identify: identify,
  ListMetadataFormats: listMetadataFormats,
  ListSets: listSets,
  GetRecord: getRecord,
  ListIdentifiers: list,
  ListRecords: list,
} satisfies Record<OaiRequest['verb'], Handler<never>>
