import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'
import { headersOf, message } from '../support/mcp-2026.ts'

/** The shipped sample with three authors (one ORCID iD, two affiliations), a DOI, a licence and a correction. */
const SLUG = 'second-chance-eviction-under-skew'
const BASE = 'http://localhost:4321'
const app = createApp({
  ...(await testDeps({ corpus: 'shipped', baseUrl: BASE })),
  siteDir: join(distOf('shipped'), 'current', 'site'),
})

async function readResource(uri: string): Promise<string> {
  const res = await request(app)
    .post('/mcp')
    .set(headersOf('resources/read', uri))
    .send(JSON.stringify(message('resources/read', { uri })))
  expect(res.status).toBe(200)
  expect(res.body.result.contents).toHaveLength(1)
  expect(res.body.result.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' })
  return res.body.result.contents[0].text as string
}

describe('an article as an MCP resource and as its markdown twin', () => {
  it('is the same document, byte for byte, header and body', async () => {
    const uri = `${BASE}/posts/${SLUG}.md`
    const twin = await request(app)
      .get(`/posts/${SLUG}.md`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => done(null, Buffer.concat(chunks)))
      })
    expect(twin.status).toBe(200)
    const text = await readResource(uri)
    expect(Buffer.from(text)).toEqual(twin.body)
    // What an agent must not lose: the authorship, the DOI, the licence and the correction.
    expect(text).toMatch(/^# Second-Chance Eviction Under Skewed Workloads: A Replication\n/)
    for (const line of [
      '- Author: Priya Raman (Lattice Research)',
      '- Author: Josiah Carberry (https://orcid.org/0000-0002-1825-0097, Brown University)',
      '- Author: Mateo García',
      '- DOI: https://doi.org/10.5555/lattice.2025.eviction',
      '- License: CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/)',
      '- Changed 2025-07-03: Corrected the cache size in Table 1',
      '- Updated: 2025-07-03T00:00:00.000Z',
      `- Canonical: ${BASE}/posts/${SLUG}`,
    ])
      expect(text).toContain(line)
  })

  it('matches for an article with one author and no DOI or changes too', async () => {
    const slug = 'consistent-hashing-under-churn'
    const twin = await request(app).get(`/posts/${slug}.md`).buffer(true)
    expect(twin.status).toBe(200)
    const text = await readResource(`${BASE}/posts/${slug}.md`)
    expect(text).toBe(twin.text)
    expect(text).not.toMatch(/^- (DOI|Changed)/m)
  })
})
