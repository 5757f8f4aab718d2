import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const app = createApp(await testDeps())
const TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'

type Linkset = { linkset: Array<{ anchor: string } & Record<string, Array<{ href: string; type?: string }>>> }

describe('/.well-known/api-catalog (RFC 9727)', () => {
  it(
    'is a linkset with the RFC 9727 profile, ' + 'naming the API, its OpenAPI description, /auth.md and its metadata',
    async () => {
      const res = await request(app)
        .get('/.well-known/api-catalog')
        .buffer(true)
        .parse((r, done) => {
          let text = ''
          r.on('data', (c: Buffer) => (text += c))
          r.on('end', () => done(null, text))
        })
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe(TYPE)
      expect(res.headers.link).toBe(`<${BASE_URL}/.well-known/api-catalog>; rel="api-catalog"`)
      expect(res.headers['access-control-allow-origin']).toBe('*')
      const { linkset } = JSON.parse(res.body as string) as Linkset
      const self = linkset.find((c) => c.anchor === `${BASE_URL}/.well-known/api-catalog`)!
      expect(self.item).toEqual([
        { href: `${BASE_URL}/api/v1` },
        { href: `${BASE_URL}/mcp` },
        { href: `${BASE_URL}/oai` },
      ])
      const api = linkset.find((c) => c.anchor === `${BASE_URL}/api/v1`)!
      expect(api['service-desc']).toEqual([
        { href: `${BASE_URL}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
      ])
      expect(api['service-doc']!.map((l) => l.href)).toContain(`${BASE_URL}/auth.md`)
      expect(api['service-meta']!.map((l) => l.href)).toEqual([`${BASE_URL}/.well-known/oauth-protected-resource`])
      // The second way in: the MCP endpoint, described by its server card.
      const mcp = linkset.find((c) => c.anchor === `${BASE_URL}/mcp`)!
      expect(mcp['service-desc']).toEqual([
        { href: `${BASE_URL}/mcp/server-card`, type: 'application/mcp-server-card+json', title: 'MCP server card' },
      ])
      expect(mcp['service-meta']!.map((l) => l.href)).toEqual([`${BASE_URL}/.well-known/oauth-protected-resource/mcp`])
      // The third: the OAI-PMH repository, whose Identify answer is its metadata.
      const oai = linkset.find((c) => c.anchor === `${BASE_URL}/oai`)!
      expect(oai['service-doc']![0]!.href).toBe('http://www.openarchives.org/OAI/openarchivesprotocol.html')
      expect(oai['service-meta']).toEqual([{ href: `${BASE_URL}/oai?verb=Identify`, type: 'text/xml' }])
      const identify = await request(app).get('/oai?verb=Identify')
      expect(identify.text).toContain(`<baseURL>${BASE_URL}/oai</baseURL>`)
      // Every target is one this origin answers (the MCP endpoint itself takes POSTs only).
      const targets = [api, mcp].flatMap((c) => [...c['service-desc']!, ...c['service-meta']!])
      for (const href of [...targets, self.item![0]!].map((l) => l.href))
        expect((await request(app).get(new URL(href).pathname)).status, href).toBe(200)
    },
  )

  it('answers HEAD with the same headers and no body, and a conditional GET with 304', async () => {
    const get = await request(app).get('/.well-known/api-catalog')
    const head = await request(app).head('/.well-known/api-catalog')
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe(TYPE)
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    expect(head.text ?? '').toBe('')
    const again = await request(app).get('/.well-known/api-catalog').set('If-None-Match', get.headers.etag!)
    expect(again.status).toBe(304)
  })

  it('is linked from the /api/v1 catalog', async () => {
    const res = await request(app).get('/api/v1')
    expect(res.body.links.api_catalog).toBe(`${BASE_URL}/.well-known/api-catalog`)
  })

  it('refuses writes with 405 and the table’s Allow', async () => {
    const res = await request(app).post('/.well-known/api-catalog')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })
})
