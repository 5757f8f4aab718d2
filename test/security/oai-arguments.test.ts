/**
 * Hostile OAI-PMH arguments: a query that holds a second `?`, a metadataPrefix outside the
 * schema's syntax, and the earliest dates the protocol allows. Every answer is a valid OAI-PMH
 * document (xmllint against OAI-PMH.xsd) that says what the request asked, never a silent widening.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { readOai, validateOai } from '../support/oai.ts'

const app = createApp({ ...(await testDeps({ corpus: 'shipped' })), oaiPageSize: 1000 })
const HOST = new URL(BASE_URL).hostname

async function answer(query: string) {
  const res = await request(app).get(`/oai?${query}`)
  expect(res.status).toBe(200)
  await validateOai(res.text)
  return readOai(res.text)
}

describe('OAI-PMH arguments a harvester did not mean', () => {
  it('refuses a metadataPrefix with a "?" as a format it cannot disseminate, the set not dropped', async () => {
    const all = await answer('verb=ListRecords&metadataPrefix=oai_dc')
    expect(all.identifiers.length).toBeGreaterThan(1)
    for (const verb of ['ListRecords', 'ListIdentifiers']) {
      const page = await answer(`verb=${verb}&metadataPrefix=oai_dc?&set=caching`)
      expect(page.error, verb).toBe('cannotDisseminateFormat')
      expect(page.identifiers).toEqual([])
      // §3.2 echoes the request, but not a value metadataPrefixType cannot hold.
      expect(page.request).toEqual({ verb, set: 'caching' })
    }
    const record = await answer(
      `verb=GetRecord&identifier=oai:${HOST}:second-chance-eviction-under-skew&metadataPrefix=oai%20dc`,
    )
    expect(record.error).toBe('cannotDisseminateFormat')
    expect(record.request.metadataPrefix).toBeUndefined()
  })

  it('reads everything after the first "?" as the query', async () => {
    const caching = await answer('verb=ListIdentifiers&metadataPrefix=oai_dc&set=caching')
    expect(caching.error).toBeUndefined()
    const all = await answer('verb=ListIdentifiers&metadataPrefix=oai_dc')
    expect(caching.identifiers.length).toBeLessThan(all.identifiers.length)
    // A "?" inside a value is part of it: the set is still read, and does not exist.
    const odd = await answer('verb=ListIdentifiers&metadataPrefix=oai_dc&set=caching?')
    expect(odd.error).toBe('badArgument')
  })

  it('takes 0001-01-01 as an early bound, not as 1901', async () => {
    const all = await answer('verb=ListIdentifiers&metadataPrefix=oai_dc')
    for (const from of ['0001-01-01', '0001-01-01T00:00:00Z', '0099-12-31']) {
      const page = await answer(`verb=ListIdentifiers&metadataPrefix=oai_dc&from=${from}`)
      expect(page.error, from).toBeUndefined()
      expect(page.identifiers, from).toEqual(all.identifiers)
    }
    // As an upper bound it is before every record, not 1901's 1 January.
    expect((await answer('verb=ListRecords&metadataPrefix=oai_dc&until=0001-01-01')).error).toBe('noRecordsMatch')
    expect((await answer('verb=ListRecords&metadataPrefix=oai_dc&from=0001-01-01&until=0099-12-31')).error).toBe(
      'noRecordsMatch',
    )
    // Year 0 is no date of the protocol's (xs:date has no year 0), and 0001-02-29 never was.
    for (const from of ['0000-01-01', '0001-02-29'])
      expect((await answer(`verb=ListRecords&metadataPrefix=oai_dc&from=${from}`)).error, from).toBe('badArgument')
  })
})
