import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { postExchange, registerAgent } from '../support/agent.ts'
import { decide, openConsent, pkce } from '../support/oauth-person.ts'
import { useProxy } from '../support/nginx-proxy.ts'
import { waitFor, type Running } from '../support/processes.ts'

/* MCP clients of both protocol versions, and an MCP client's OAuth authorization, through nginx. */
describe('the production proxy: real nginx, two replicas, real Redis', () => {
  const proxy = useProxy()
  let origin: string
  let direct: string[]
  let replicas: Running[]
  beforeAll(() => {
    ;({ origin, direct, replicas } = proxy)
  })

  it(
    'serves an MCP client through nginx from both replicas ' +
      'alternately, with a key, a token and the /mcp challenge',
    async () => {
      const mcpLines = () =>
        replicas.map(
          (r) =>
            r
              .output()
              .split('\n')
              .filter((l) => l.includes('"url":"/mcp"')).length,
        )
      const before = mcpLines()
      const connect = async (headers: Record<string, string> = {}) => {
        const client = new Client({ name: 'edge-test', version: '1.0.0' })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }))
        return client
      }
      const anonymous = await connect()
      const rest = await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()
      for (let i = 0; i < 3; i++)
        expect(
          (await anonymous.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })).structuredContent,
        ).toEqual(rest)
      const read = await anonymous.readResource({ uri: `${origin}/posts/hashing-rings.md` })
      // The resource is the markdown twin nginx serves, byte for byte.
      const twin = await (await fetch(`${origin}/posts/hashing-rings.md`)).text()
      expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: twin })
      await anonymous.close()
      // Stateless: the client's messages went to one replica and the next, and both answered.
      // (A replica's log line reaches this process through a pipe, after its answer: it is waited for.)
      const served = (after: number[]) => after.map((n, i) => n - before[i]!)
      await waitFor(
        async () => (served(mcpLines()).every((n) => n >= 2) ? true : undefined),
        2000,
        "both replicas' log lines",
      ).catch(() => {})
      const [first, second] = served(mcpLines())
      expect(first, 'first replica').toBeGreaterThanOrEqual(2)
      expect(second, 'second replica').toBeGreaterThanOrEqual(2)

      // Credentials issued by one replica work on the other, through the edge.
      const { key } = await (await fetch(`${direct[0]}/api/v1/keys`, { method: 'POST' })).json()
      const { identity_assertion } = await registerAgent(direct[1]!)
      const { access_token } = (await postExchange(direct[0]!, identity_assertion, { resource: `${origin}/mcp` })).body
      for (const credential of [key, access_token]) {
        const client = await connect({ Authorization: `Bearer ${credential}` })
        const found = await client.callTool({ name: 'search_posts', arguments: { q: 'hashing' } })
        expect(found.structuredContent).toEqual(await (await fetch(`${origin}/api/v1/search?q=hashing`)).json())
        await client.close()
      }

      const refused = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer not-valid',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      )
      const metadata = await discoverOAuthProtectedResourceMetadata(`${origin}/mcp`)
      expect(metadata).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] })
      // Never cached at the edge, and GET has no stream to offer.
      const get = await fetch(`${origin}/mcp`, { headers: { Accept: 'text/event-stream' } })
      expect(get.status).toBe(405)
      expect(get.headers.get('allow')).toBe('POST')
    },
  )

  it('serves a 2026-07-28 client and the server card through nginx', async () => {
    const client = new ClientV2(
      { name: 'edge-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    await client.connect(new TransportV2(new URL(`${origin}/mcp`)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const rest = await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()
      for (let i = 0; i < 3; i++)
        expect(
          (await client.callTool({ name: 'fetch', arguments: { id: 'hashing-rings' } })).structuredContent,
        ).toMatchObject({ id: 'hashing-rings', text: rest.markdown })
    } finally {
      await client.close()
    }
    // The card at both addresses, open to any origin, from the service (not the static site's 404).
    const card = await fetch(`${origin}/mcp/server-card`, { headers: { Origin: 'https://agent.example' } })
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toMatch(/^application\/mcp-server-card\+json/)
    expect(card.headers.get('access-control-allow-origin')).toBe('*')
    const body = (await card.json()) as { remotes: Array<{ url: string }> }
    expect(body.remotes[0]!.url).toBe(`${origin}/mcp`)
    const wellKnown = await fetch(`${origin}/.well-known/mcp/server-card.json`)
    expect(wellKnown.status).toBe(200)
    expect(await wellKnown.json()).toEqual(body)
  })

  it(
    "walks an MCP client's authorization through nginx: registration, " +
      'the consent page as the service sends it, the code, a tool call',
    async () => {
      const redirect = 'http://127.0.0.1:53682/callback'
      const registered = await fetch(`${origin}/oauth2/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Edge client',
          redirect_uris: [redirect],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
        }),
      })
      expect(registered.status).toBe(201)
      const { client_id } = (await registered.json()) as { client_id: string }
      const { verifier, challenge } = pkce()
      const resource = `${origin}/mcp`
      const query = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: redirect,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'edge-1',
        resource,
      })
      const page = await openConsent(origin, `${origin}/oauth2/authorize?${query}`)
      expect(page.status).toBe(200)
      expect(page.html).toContain('Edge client')
      // The page's own protections reach the browser intact, and nginx keeps no copy of it.
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(page.headers['cache-control']).toBe('no-store')
      expect(page.headers['referrer-policy']).toBe('no-referrer')
      expect(page.headers['x-cache-status']).toBeUndefined()
      expect(page.cookie).not.toBe('')

      const decision = await decide(origin, page)
      expect(decision.status).toBe(303)
      const back = new URL(decision.location!)
      expect(`${back.origin}${back.pathname}`).toBe(redirect)
      expect(back.searchParams.get('state')).toBe('edge-1')
      expect(back.searchParams.get('iss')).toBe(origin)
      const token = await fetch(`${origin}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: redirect,
          client_id,
          code_verifier: verifier,
          resource,
        }),
      })
      expect(token.status).toBe(200)
      const { access_token } = (await token.json()) as { access_token: string }

      const client = new Client({ name: 'edge-oauth-test', version: '1.0.0' })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(resource), {
          requestInit: { headers: { Authorization: `Bearer ${access_token}` } },
        }),
      )
      try {
        const post = await client.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })
        expect(post.structuredContent).toMatchObject({ slug: 'hashing-rings' })
      } finally {
        await client.close()
      }
    },
  )
})
