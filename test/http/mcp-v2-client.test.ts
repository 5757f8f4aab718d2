/**
 * The official SDK v2 client (`@modelcontextprotocol/client`) over its Streamable HTTP transport,
 * pinned to protocol 2026-07-28, against the service on a real port: every tool and a resource
 * without a credential and with an API key, and its own OAuth provider walking discovery from a
 * 401, a client ID metadata document or dynamic registration, the consent page (the test plays
 * the person), the RFC 9207 issuer check and the code exchange.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  Client,
  StreamableHTTPClientTransport,
  type OAuthClientMetadata,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client'
import { decodeJwt } from 'jose'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { markdownTwin, type TwinFields } from '../../model/markdown-twin.ts'
import { testDeps } from '../support/index.ts'
import { approve } from '../support/oauth-person.ts'
import { selfSignedCertificate, serveHttps } from '../support/tls.ts'

const V = '2026-07-28'
const REDIRECT = 'http://127.0.0.1:53683/callback'
type Stored = Awaited<ReturnType<OAuthClientProvider['tokens']>>
type StoredClient = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>

const running: Array<{ server: Server; deps: AppDeps }> = []
const clients: Client[] = []
afterAll(async () => {
  for (const c of clients) await c.close()
  for (const { server, deps } of running) {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
    await deps.store.close()
  }
})

async function serve(clientMetadata?: AppDeps['clientMetadata']): Promise<string> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deps = await testDeps({ baseUrl: base })
  server.on('request', createApp({ ...deps, ...(clientMetadata ? { clientMetadata } : {}) }))
  running.push({ server, deps })
  return base
}

/** A v2 client pinned to 2026-07-28, every request's headers recorded. */
async function connect(
  base: string,
  options: { headers?: Record<string, string>; authProvider?: OAuthClientProvider } = {},
) {
  const client = new Client({ name: 'lattice-v2-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } } })
  const sent: Headers[] = []
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: options.headers ?? {} },
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    fetch: (url, init) => {
      sent.push(new Headers(init?.headers))
      return fetch(url, init)
    },
  })
  return { client, transport, sent, connected: client.connect(transport).then(() => clients.push(client)) }
}

const rest = async (base: string, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, { headers })
  expect(res.status, path).toBe(200)
  return res.json() as Promise<Record<string, unknown>>
}

/** Every tool, answering what the REST reads answer, and an article as a resource. */
async function useEverything(base: string, client: Client, headers: Record<string, string> = {}) {
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name)).toEqual(['search', 'fetch', 'search_posts', 'get_post', 'list_posts'])
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    expect(result.isError, name).toBeFalsy()
    return result.structuredContent as Record<string, unknown>
  }
  const search = (await rest(base, '/api/v1/search?q=hashing', headers)) as { posts: Array<Record<string, string>> }
  expect(await call('search', { query: 'hashing' })).toEqual({
    results: search.posts.map((p) => ({ id: p.slug, title: p.title, url: p.url })),
  })
  const { markdown, ...post } = await rest(base, '/api/v1/posts/hashing-rings', headers)
  expect(await call('fetch', { id: 'hashing-rings' })).toMatchObject({
    id: 'hashing-rings',
    text: markdown,
    url: post.url,
  })
  expect(await call('search_posts', { q: 'hashing' })).toEqual(search)
  expect(await call('get_post', { slug: 'hashing-rings' })).toEqual({ ...post, markdown })
  expect(await call('list_posts', { limit: 2 })).toEqual(await rest(base, '/api/v1/posts?limit=2', headers))

  const uri = post.markdown_url as string
  const read = await client.readResource({ uri })
  // The markdown twin: the article's metadata over the body (test/http/mcp-markdown-twin.test.ts).
  const twin = markdownTwin(post as unknown as TwinFields, markdown as string)
  expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: twin }])
}

describe('the SDK v2 client on 2026-07-28', () => {
  it('negotiates 2026-07-28 without a credential and uses every tool and a resource', async () => {
    const base = await serve()
    const { client, sent, connected } = await connect(base)
    await connected
    expect(client.getNegotiatedProtocolVersion()).toBe(V)
    expect(client.getServerVersion()).toMatchObject({ name: 'lattice-research' })
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} })
    await useEverything(base, client)
    // It spoke 2026 on every request: the standard headers, no initialize, no session.
    expect(sent.every((h) => h.get('mcp-protocol-version') === V && h.get('mcp-method'))).toBe(true)
    expect(sent.some((h) => h.get('mcp-method') === 'initialize')).toBe(false)
  })

  it('identifies itself with an API key', async () => {
    const base = await serve()
    const key = ((await (await fetch(`${base}/api/v1/keys`, { method: 'POST' })).json()) as { key: string }).key
    const headers = { Authorization: `Bearer ${key}` }
    const { client, sent, connected } = await connect(base, { headers })
    await connected
    await useEverything(base, client, headers)
    expect(new Set(sent.map((h) => h.get('authorization')))).toEqual(new Set([`Bearer ${key}`]))
  })

  it('gets a token with its own OAuth provider: dynamic registration, consent, iss, code exchange', async () => {
    const base = await serve()
    const provider = new ScriptedProvider(base)
    await oauthWalk(base, provider)
    expect(String(provider.client?.client_id)).toMatch(/^lat_client_/)
  })

  it('uses a client ID metadata document first when it has one', async () => {
    const tls = selfSignedCertificate()
    let docUrl = ''
    const documents = await serveHttps(tls, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          client_id: docUrl,
          client_name: 'SDK v2 metadata-document client',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
        }),
      )
    })
    try {
      docUrl = `${documents.origin}/oauth/client.json`
      const base = await serve({ devOrigins: [documents.origin], ca: tls.cert })
      const provider = new ScriptedProvider(base, docUrl)
      await oauthWalk(base, provider)
      expect(provider.client?.client_id).toBe(docUrl)
      expect(provider.registered).toBe(false)
    } finally {
      await documents.close()
    }
  })
})

/**
 * A stale token gets a 401 naming /mcp's metadata; the transport walks discovery and the
 * authorization, the person approves, finishAuth checks `iss` and exchanges the code, and a new
 * connection uses everything with the token, which is bound to /mcp.
 */
async function oauthWalk(base: string, provider: ScriptedProvider) {
  const first = await connect(base, { authProvider: provider })
  await expect(first.connected).rejects.toThrow(/nauthorized/)
  expect(provider.authorizationUrl?.pathname).toBe('/oauth2/authorize')
  expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(`${base}/mcp`)
  const callback = provider.returned!
  expect(callback.searchParams.get('iss')).toBe(base)
  await first.transport.finishAuth(callback.searchParams)

  const token = provider.saved!.access_token
  expect(decodeJwt(token)).toMatchObject({ aud: `${base}/mcp` })
  const again = await connect(base, { authProvider: provider })
  await again.connected
  expect(again.client.getNegotiatedProtocolVersion()).toBe(V)
  await useEverything(base, again.client)
  expect(new Set(again.sent.map((h) => h.get('authorization')))).toEqual(new Set([`Bearer ${token}`]))
}

/**
 * The client's provider, all in memory: it starts with a stale token; the person approves when sent to
 * the consent page.
 */
class ScriptedProvider implements OAuthClientProvider {
  client: StoredClient
  saved: { access_token: string; token_type: string; refresh_token?: string } | undefined = {
    access_token: 'stale',
    token_type: 'Bearer',
  }
  verifier = ''
  registered = false
  authorizationUrl: URL | undefined
  returned: URL | undefined
  readonly clientMetadataUrl: string | undefined
  private readonly origin: string
  constructor(origin: string, clientMetadataUrl?: string) {
    this.origin = origin
    this.clientMetadataUrl = clientMetadataUrl
  }
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK v2 scripted client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  state() {
    return 'v2-state'
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: NonNullable<StoredClient>) {
    this.registered = !this.clientMetadataUrl || info.client_id !== this.clientMetadataUrl
    this.client = info
  }
  tokens(): Stored {
    return this.saved
  }
  saveTokens(tokens: NonNullable<Stored>) {
    this.saved = tokens
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined
  }
  async redirectToAuthorization(url: URL) {
    expect(url.origin).toBe(this.origin)
    this.authorizationUrl = url
    this.returned = await approve(this.origin, url.href)
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}
