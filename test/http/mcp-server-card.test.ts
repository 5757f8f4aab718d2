import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { testDeps } from '../support/index.ts'

const V = '2026-07-28'
const MODERN = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': V,
}
const META = {
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientInfo': { name: 'card-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
}

describe('the MCP server card', () => {
  let app: ReturnType<typeof createApp>
  beforeAll(async () => {
    app = createApp(await testDeps())
  })
  const rpc = async (method: string) =>
    (
      await request(app)
        .post('/mcp')
        .set({ ...MODERN, 'Mcp-Method': method })
        .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: META } }))
    ).body.result

  it('is served at <mcp-url>/server-card and at the earlier well-known address, the same card', async () => {
    const card = await request(app).get('/mcp/server-card').set('Accept', 'application/mcp-server-card+json')
    expect(card.status).toBe(200)
    expect(card.headers['content-type']).toMatch(/^application\/mcp-server-card\+json/)
    expect(card.headers['cache-control']).toBe('public, max-age=3600')
    expect(card.headers.etag).toEqual(expect.any(String))
    const wellKnown = await request(app).get('/.well-known/mcp/server-card.json')
    expect(wellKnown.status).toBe(200)
    expect(wellKnown.text).toBe(card.text)
    const again = await request(app).get('/mcp/server-card').set('If-None-Match', card.headers.etag!)
    expect(again.status).toBe(304)
  })

  it('is open to any origin (CORS), even where /mcp itself refuses other origins', async () => {
    const res = await request(app).get('/mcp/server-card').set('Origin', 'https://agent.example')
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['access-control-expose-headers']).toMatch(/ETag/)
    const preflight = await request(app)
      .options('/.well-known/mcp/server-card.json')
      .set({ Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-methods']).toMatch(/GET/)
    expect(preflight.headers['access-control-allow-headers']).toMatch(/If-None-Match/)
    // A bearer the endpoint would refuse does not concern the card: it is public.
    expect((await request(app).get('/mcp/server-card').set('Authorization', 'Bearer forged')).status).toBe(200)
    expect((await request(app).post('/mcp/server-card')).status).toBe(405)
    expect((await request(app).get('/mcp/other')).status).toBe(404)
  })

  it('agrees with server/discover and tools/list, and names the endpoint, versions and authorization', async () => {
    const card = (await request(app).get('/mcp/server-card')).body
    const discover = await rpc('server/discover')
    const { tools } = await rpc('tools/list')
    expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json')
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)
    expect(card.name).toBe('org.example.research/lattice-research')
    expect(card.version).toBe(discover._meta['io.modelcontextprotocol/serverInfo'].version)
    expect(card.title).toBe(discover._meta['io.modelcontextprotocol/serverInfo'].title)
    expect(card.description.length).toBeLessThanOrEqual(100)
    expect(card.remotes).toEqual([
      expect.objectContaining({
        type: 'streamable-http',
        url: 'https://research.example.org/mcp',
        supportedProtocolVersions: expect.arrayContaining([...discover.supportedVersions, '2025-11-25']),
      }),
    ])
    const ns = 'org.example.research'
    expect(card._meta[`${ns}/capabilities`]).toEqual(discover.capabilities)
    expect(card._meta[`${ns}/instructions`]).toBe(discover.instructions)
    expect(card._meta[`${ns}/tools`]).toEqual(
      tools.map((t: Record<string, unknown>) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        annotations: t.annotations,
      })),
    )
    const auth = card._meta[`${ns}/authorization`]
    expect(auth).toMatchObject({
      required: false,
      protected_resource_metadata: 'https://research.example.org/.well-known/oauth-protected-resource/mcp',
      client_registration: ['client_id_metadata_document', 'dynamic_client_registration'],
    })
    const prm = await request(app).get(new URL(auth.protected_resource_metadata).pathname)
    expect(prm.body.resource).toBe(card.remotes[0].url)
  })

  it('is found through the AI catalog of the origin', async () => {
    const res = await request(app).get('/.well-known/ai-catalog.json')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/ai-catalog\+json/)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const catalog = JSON.parse(res.text)
    expect(catalog).toEqual({
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:research.example.org:mcp:lattice-research',
          type: 'application/mcp-server-card+json',
          url: 'https://research.example.org/mcp/server-card',
        },
      ],
    })
  })
})

describe('the AI catalog identifier', () => {
  /** The identifier's publisher part, split as a reader of `urn:air:{publisher}:{namespace}:{name}` splits it. */
  const identifierAt = async (baseUrl: string) => {
    const app = createApp(await testDeps({ baseUrl }))
    const res = await request(app).get('/.well-known/ai-catalog.json')
    expect(res.status).toBe(200)
    return JSON.parse(res.text).entries[0].identifier as string
  }

  it('names the publisher by its domain alone, with no port to read as a namespace', async () => {
    const id = await identifierAt('http://127.0.0.1:33651')
    expect(id).toBe('urn:air:127.0.0.1:mcp:lattice-research')
    expect(id.split(':')).toEqual(['urn', 'air', '127.0.0.1', 'mcp', 'lattice-research'])
  })

  it('percent-encodes an IPv6 literal, so its colons do not split the URN', async () => {
    const id = await identifierAt('http://[::1]:8080')
    expect(id).toBe('urn:air:%5B%3A%3A1%5D:mcp:lattice-research')
    expect(decodeURIComponent(id.split(':')[2]!)).toBe('[::1]')
  })
})
