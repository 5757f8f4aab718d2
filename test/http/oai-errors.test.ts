import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { sealToken, tokenKey } from '../../auth-service/oai/tokens.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { readOai, validateOai } from '../support/oai.ts'

const deps = await testDeps({ corpus: 'shipped' })
const app = createApp({ ...deps, oaiPageSize: 4 })
const HOST = new URL(BASE_URL).hostname
const SLUG = 'second-chance-eviction-under-skew'

/** The answer to a query string: always 200 and valid; its error code and echoed arguments. */
async function answer(query: string, on = app) {
  const res = await request(on).get(`/oai?${query}`)
  expect(res.status).toBe(200)
  await validateOai(res.text)
  return readOai(res.text)
}

async function refusal(query: string, code: string, on = app) {
  const page = await answer(query, on)
  expect(page.error, query).toBe(code)
  // §3.2: badVerb and badArgument echo no argument; other errors echo the request.
  if (code === 'badVerb' || code === 'badArgument') expect(page.request, query).toEqual({})
  else expect(page.request, query).toEqual(Object.fromEntries(new URLSearchParams(query)))
  return page
}

const firstToken = async (verb: string) => (await answer(`verb=${verb}&metadataPrefix=oai_dc`)).token!.value

describe('OAI-PMH errors, as the protocol names them (§3.6)', () => {
  it('badVerb: missing, repeated or unknown', async () => {
    for (const q of ['', 'metadataPrefix=oai_dc', 'verb=Identify&verb=Identify', 'verb=Delete', 'verb=identify'])
      await refusal(q, 'badVerb')
  })

  it('badArgument: unknown, repeated, missing, malformed, or beside a resumption token', async () => {
    const token = encodeURIComponent(await firstToken('ListRecords'))
    for (const q of [
      'verb=Identify&identifier=x:y',
      'verb=ListRecords',
      'verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc',
      'verb=ListRecords&metadataPrefix=oai_dc&colour=blue',
      'verb=GetRecord&metadataPrefix=oai_dc',
      `verb=GetRecord&identifier=oai:${HOST}:${SLUG}`,
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-13-01',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-02-30',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-01-01T00:00:00.5Z',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-01-01T00:00:00+01:00',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-01-01&until=2025-06-01T00:00:00Z',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-06-01&until=2025-01-01',
      'verb=ListIdentifiers&metadataPrefix=oai_dc&set=not%20a%20set',
      `verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=${token}`,
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${'x'.repeat(10_000)}`,
      'verb=GetRecord&metadataPrefix=oai_dc&identifier=not a uri',
    ])
      await refusal(q, 'badArgument')
  })

  it('cannotDisseminateFormat, idDoesNotExist and noRecordsMatch, echoing the request', async () => {
    await refusal(`verb=GetRecord&identifier=oai:${HOST}:${SLUG}&metadataPrefix=marc21`, 'cannotDisseminateFormat')
    await refusal('verb=ListRecords&metadataPrefix=mods', 'cannotDisseminateFormat')
    await refusal(`verb=GetRecord&identifier=oai:${HOST}:no-such-article&metadataPrefix=oai_dc`, 'idDoesNotExist')
    await refusal(`verb=GetRecord&identifier=oai:elsewhere.org:${SLUG}&metadataPrefix=oai_dc`, 'idDoesNotExist')
    await refusal('verb=ListMetadataFormats&identifier=oai:elsewhere.org:x', 'idDoesNotExist')
    await refusal('verb=ListRecords&metadataPrefix=oai_dc&until=1990-01-01', 'noRecordsMatch')
  })

  it('badResumptionToken: forged, altered, expired, of another list, or for ListSets', async () => {
    const token = await firstToken('ListRecords')
    const flip = (t: string, at: number) => t.slice(0, at) + (t[at] === 'A' ? 'B' : 'A') + t.slice(at + 1)
    const key = tokenKey(deps.signingKey.privateKey)
    const query = { verb: 'ListRecords', metadataPrefix: 'oai_dc' } as const
    const expired = sealToken(key, { query, after: { sec: 0, slug: 'a' }, cursor: 4, expiresSec: 1 })
    const otherKey = tokenKey((await testDeps()).signingKey.privateKey)
    const foreign = sealToken(otherKey, { query, after: { sec: 0, slug: 'a' }, cursor: 4, expiresSec: 2 ** 40 })
    for (const bad of [
      'abc',
      'not base64!',
      'A'.repeat(5000),
      flip(token, 5),
      flip(token, 20),
      flip(token, token.length - 3),
      token.slice(0, -4),
      expired,
      foreign,
    ])
      await refusal(`verb=ListRecords&resumptionToken=${encodeURIComponent(bad)}`, 'badResumptionToken')
    // A token continues only the list it was issued for.
    await refusal(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`, 'badResumptionToken')
    await refusal(`verb=ListSets&resumptionToken=${encodeURIComponent(token)}`, 'badResumptionToken')
  })

  it('noSetHierarchy when no article has a tag', async () => {
    const untagged = createPostIndex(
      [
        {
          slug: 'only',
          title: 'Only',
          description: 'The only article.',
          date: '2025-01-01',
          lastModified: '2025-01-01T00:00:00.000Z',
          author: 'Ada Lovelace',
          tags: [],
          readingMinutes: 1,
          markdown: 'Body.',
        },
      ],
      BASE_URL,
    )
    const bare = createApp({ ...deps, posts: () => untagged })
    await refusal('verb=ListSets', 'noSetHierarchy', bare)
    await refusal('verb=ListIdentifiers&metadataPrefix=oai_dc&set=any', 'noSetHierarchy', bare)
    expect((await answer('verb=ListRecords&metadataPrefix=oai_dc', bare)).identifiers).toEqual([`oai:${HOST}:only`])
  })
})

describe('OAI-PMH resumption across replicas, and hostile requests', () => {
  it('continues a harvest on another replica, or after a restart, sharing the store', async () => {
    const token = await firstToken('ListIdentifiers')
    const replica = createApp({ ...(await testDeps({ corpus: 'shipped', store: deps.store })), oaiPageSize: 4 })
    const next = await answer(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`, replica)
    expect(next.error).toBeUndefined()
    expect(next.token!.attributes.cursor).toBe('4')
  })

  it('answers POST only with a form: other bodies are 415, oversized ones 413, an empty one badVerb', async () => {
    const json = await request(app).post('/oai').send({ verb: 'Identify' })
    expect(json.status).toBe(415)
    expect(json.body.error).toBe('unsupported_media_type')
    const huge = await request(app)
      .post('/oai')
      .type('form')
      .send(`verb=Identify&x=${'a'.repeat(20_000)}`)
    expect(huge.status).toBe(413)
    const empty = await request(app).post('/oai').type('form').send('')
    expect(readOai(empty.text).error).toBe('badVerb')
    const other = await request(app).put('/oai')
    expect(other.status).toBe(405)
    expect(other.headers.allow).toBe('GET, HEAD, POST')
  })

  it('drops what XML cannot hold from an echoed argument, and never echoes a refused one', async () => {
    await refusal(`verb=GetRecord&identifier=oai:${HOST}:a%01b&metadataPrefix=oai_dc`, 'badArgument')
    const page = await answer('verb=ListRecords&resumptionToken=%01%EF%BF%BEabc%3C')
    expect(page.error).toBe('badResumptionToken')
    expect(page.request).toEqual({ verb: 'ListRecords', resumptionToken: 'abc<' })
    const res = await request(app).get(`/oai?verb=${encodeURIComponent('<script>')}`)
    expect(res.text).not.toContain('<script>')
  })

  it('draws on the read budget, by GET and by POST', async () => {
    const budgeted = createApp({ ...deps, rateLimits: DEFAULT_RATE_LIMITS })
    const get = await request(budgeted).get('/oai?verb=Identify')
    const post = await request(budgeted).post('/oai').type('form').send('verb=Identify')
    for (const res of [get, post]) expect(res.headers['ratelimit-policy']).toMatch(/^"reads"/)
    // Both counted on the one budget: the POST, second, has less of it left.
    const left = (res: request.Response) => Number(/r=(\d+)/.exec(String(res.headers.ratelimit))![1])
    expect(left(post)).toBeLessThan(left(get))
  })
})
