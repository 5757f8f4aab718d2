/**
 * The official MCP TypeScript SDK's own OAuth client (`auth()`), as every MCP client built on it
 * runs it, against the service on a real port: discovery from a 401, registration (dynamic, or a
 * client ID metadata document), the consent (the test plays the person), the code exchange, a
 * protected call, and a refresh.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { decodeJwt } from 'jose'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { testDeps } from '../support/index.ts'
import { approve } from '../support/oauth-person.ts'
import { selfSignedCertificate, serveHttps } from '../support/tls.ts'

const REDIRECT = 'http://127.0.0.1:53682/callback'

/** An MCP client's provider with everything in memory; the person approves when sent to the consent page. */
class ScriptedProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  code: string | undefined
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
      client_name: 'SDK scripted client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  state() {
    return 'sdk-state'
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  async redirectToAuthorization(url: URL) {
    expect(url.origin).toBe(this.origin)
    this.returned = await approve(this.origin, url.href)
    this.code = this.returned.searchParams.get('code') ?? undefined
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

const running: Array<{ server: Server; deps: AppDeps }> = []
afterAll(async () => {
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

/** What every MCP client does: a call without a token, then auth() from the challenge it got. */
async function walk(base: string, provider: ScriptedProvider) {
  const serverUrl = `${base}/api/v1`
  const challenge = await fetch(`${base}/api/v1/posts`, { headers: { Authorization: 'Bearer expired' } })
  expect(challenge.status).toBe(401)
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(challenge)
  expect(resourceMetadataUrl?.href).toBe(`${base}/.well-known/oauth-protected-resource`)

  expect(await auth(provider, { serverUrl, resourceMetadataUrl })).toBe('REDIRECT')
  expect(provider.returned!.searchParams.get('state')).toBe('sdk-state')
  expect(provider.returned!.searchParams.get('iss')).toBe(base)
  expect(await auth(provider, { serverUrl, resourceMetadataUrl, authorizationCode: provider.code! })).toBe('AUTHORIZED')
  const first = provider.saved!
  expect(first.refresh_token).toMatch(/^lat_rt_/)
  const claims = decodeJwt(first.access_token)
  expect(claims).toMatchObject({ aud: serverUrl, client_id: provider.client!.client_id })

  const posts = await fetch(`${base}/api/v1/posts?limit=1`, {
    headers: { Authorization: `Bearer ${first.access_token}` },
  })
  expect(posts.status).toBe(200)
  expect(((await posts.json()) as { posts: unknown[] }).posts).toHaveLength(1)

  // With tokens saved, the next auth() refreshes: a new pair, and the old refresh token is spent.
  expect(await auth(provider, { serverUrl, resourceMetadataUrl })).toBe('AUTHORIZED')
  const second = provider.saved!
  expect(second.refresh_token).not.toBe(first.refresh_token)
  const reuse = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: provider.client!.client_id,
    }),
  })
  expect(reuse.status).toBe(400)
  expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant')
}

describe('the MCP SDK’s auth()', () => {
  it('registers dynamically, gets consent, exchanges the code, reads and refreshes', async () => {
    const base = await serve()
    const provider = new ScriptedProvider(base)
    await walk(base, provider)
    expect(provider.client!.client_id).toMatch(/^lat_client_/)
  })

  it('uses a client ID metadata document when the client has one', async () => {
    const tls = selfSignedCertificate()
    let docUrl = ''
    const documents = await serveHttps(tls, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          client_id: docUrl,
          client_name: 'SDK metadata-document client',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
        }),
      )
    })
    try {
      docUrl = `${documents.origin}/oauth/client.json`
      const base = await serve({ devOrigins: [documents.origin], ca: tls.cert })
      const provider = new ScriptedProvider(base, docUrl)
      await walk(base, provider)
      expect(provider.client!.client_id).toBe(docUrl)
    } finally {
      await documents.close()
    }
  })

  it('walks the flow for /mcp from its own 401, then an MCP client calls a tool with the token', async () => {
    const base = await serve()
    const provider = new ScriptedProvider(base)
    const serverUrl = `${base}/mcp`
    const challenge = await fetch(serverUrl, {
      method: 'POST',
      headers: { Authorization: 'Bearer expired', 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(challenge.status).toBe(401)
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(challenge)
    expect(resourceMetadataUrl?.href).toBe(`${base}/.well-known/oauth-protected-resource/mcp`)

    expect(await auth(provider, { serverUrl, resourceMetadataUrl })).toBe('REDIRECT')
    expect(await auth(provider, { serverUrl, resourceMetadataUrl, authorizationCode: provider.code! })).toBe(
      'AUTHORIZED',
    )
    const token = provider.saved!.access_token
    // The SDK asked for the resource its metadata names: the token is for /mcp, and only there.
    expect(decodeJwt(token)).toMatchObject({ aud: serverUrl, client_id: provider.client!.client_id })
    expect((await fetch(`${base}/api/v1/posts`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401)

    // An MCP client with the provider sends the saved token on every message.
    const client = new Client({ name: 'sdk-auth-test', version: '1.0.0' })
    const sent: Array<string | null> = []
    const watched = (url: string | URL, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get('authorization'))
      return fetch(url, init)
    }
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider, fetch: watched }),
    )
    try {
      const post = await client.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })
      expect(post.isError).toBeFalsy()
      expect(post.structuredContent).toMatchObject({ slug: 'hashing-rings' })
      expect(sent.length).toBeGreaterThan(1)
      expect(new Set(sent)).toEqual(new Set([`Bearer ${token}`]))
    } finally {
      await client.close()
    }
  })
})
