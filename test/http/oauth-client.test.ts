import { createServer, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import * as oauth from 'oauth4webapi'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { loadOrCreateSigningKey } from '../../auth-service/auth/signing-key.ts'
import { protectedResources } from '../../auth-service/http/endpoint.ts'
import { createTokenService } from '../../auth-service/auth/tokens.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { join } from 'node:path'
import { openSqliteStore } from '../../auth-service/store/sqlite-store.ts'
import { JWT_BEARER, registerAgent } from '../support/agent.ts'
import { approve } from '../support/oauth-person.ts'
import { builtIndex, REDIS_URL, SEALING_SECRET } from '../support/index.ts'
import { tempDir } from '../support/temp.ts'

const redisPrefix = `test:${randomUUID()}:`

/** The service on a real port, its BASE_URL that port, so a standard client can walk it. */
async function serve(store: Store): Promise<{ base: string; server: Server }> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const signingKey = await loadOrCreateSigningKey(store, SEALING_SECRET)
  const tokens = createTokenService({ issuer: base, resources: protectedResources(base), key: signingKey })
  const index = builtIndex()
  server.on('request', createApp({ baseUrl: base, posts: () => index, store, signingKey, tokens, logError: () => {} }))
  return { base, server }
}

const sqliteFile = join(tempDir('oauth'), 'store.sqlite')

// Each factory opens the same stored data again, as a restarted process would.
describe.each([
  ['the embedded store', async (): Promise<Store> => openSqliteStore(sqliteFile)],
  ['Redis', async (): Promise<Store> => createRedisStore(REDIS_URL, { keyPrefix: redisPrefix })],
])('a standard OAuth client (oauth4webapi) on %s', (_name, openStore) => {
  const opened: Array<{ store: Store; server: Server }> = []
  afterAll(async () => {
    for (const { store, server } of opened) {
      server.close()
      await store.close()
    }
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  })

  it('goes from a 401 to discovery, registration, exchange, reads, revocation and a fresh exchange', async () => {
    const store = await openStore()
    const { base, server } = await serve(store)
    opened.push({ store, server })
    const insecure = { [oauth.allowInsecureRequests]: true }

    // 1. A 401 names the protected resource metadata.
    const denied = await oauth
      .protectedResourceRequest('stale-token', 'GET', new URL(`${base}/api/v1/posts`), undefined, undefined, insecure)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(denied).toBeInstanceOf(oauth.WWWAuthenticateChallengeError)
    const [challenge] = (denied as oauth.WWWAuthenticateChallengeError).cause
    expect(challenge!.scheme).toBe('bearer')
    expect(challenge!.parameters.error).toBe('invalid_token')
    const prmUrl = challenge!.parameters.resource_metadata!

    // 2. Both metadata documents validate with the client's own checks.
    const resource = new URL(`${base}/api/v1`)
    const rs = await oauth.processResourceDiscoveryResponse(resource, await fetch(prmUrl))
    expect(rs.authorization_servers).toEqual([base])
    const rsWellKnown = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure),
    )
    expect(rsWellKnown.resource).toBe(resource.href)
    const issuer = new URL(rs.authorization_servers![0]!)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    )
    expect(as.grant_types_supported).toContain(JWT_BEARER)
    const agentAuth = as.agent_auth as { identity_endpoint: string }

    // 3. Register anonymously.
    const registered = await fetch(agentAuth.identity_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'anonymous' }),
    })
    expect(registered.status).toBe(200)
    const { identity_assertion } = (await registered.json()) as { identity_assertion: string }

    // 4. Exchange with the jwt-bearer grant, as a public client.
    const client: oauth.Client = { client_id: 'research-agent', token_endpoint_auth_method: 'none' }
    const exchange = async () =>
      oauth.processGenericTokenEndpointResponse(
        as,
        client,
        await oauth.genericTokenEndpointRequest(
          as,
          client,
          oauth.None(),
          JWT_BEARER,
          { assertion: identity_assertion, resource: resource.href },
          insecure,
        ),
      )
    const first = await exchange()
    expect(first.token_type).toBe('bearer')
    expect(first.scope).toBe('research.read research.search')

    // 5. Read and search with the token.
    const read = (token: string, path: string) =>
      oauth.protectedResourceRequest(token, 'GET', new URL(`${base}${path}`), undefined, undefined, insecure)
    expect((await read(first.access_token, '/api/v1/posts?limit=2')).status).toBe(200)
    expect((await read(first.access_token, '/api/v1/search?q=hashing')).status).toBe(200)

    // 6. Revoke, then the token is refused with a challenge the client understands.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), first.access_token, {
        additionalParameters: { token_type_hint: 'access_token' },
        ...insecure,
      }),
    )
    const refused = await read(first.access_token, '/api/v1/posts').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError)
    expect((refused as oauth.WWWAuthenticateChallengeError).cause[0]!.parameters.error).toBe('invalid_token')

    // 7. The same identity_assertion exchanges again for a working token.
    const second = await exchange()
    expect(second.access_token).not.toBe(first.access_token)
    expect((await read(second.access_token, '/api/v1/posts')).status).toBe(200)
  })

  it(
    'runs the authorization code flow: registration, PKCE, ' + 'consent, code exchange, refresh rotation, revocation',
    async () => {
      const store = await openStore()
      const { base, server } = await serve(store)
      opened.push({ store, server })
      const insecure = { [oauth.allowInsecureRequests]: true }
      const issuer = new URL(base)
      const as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
      )
      expect(as.code_challenge_methods_supported).toEqual(['S256'])

      // Dynamic registration (RFC 7591), as a public client on a loopback redirect URI.
      const redirectUri = 'http://127.0.0.1:8976/callback'
      const registered = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          {
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            client_name: 'oauth4webapi',
          },
          insecure,
        ),
      )
      const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' }

      // The authorization request with PKCE; the person approves on the consent page.
      const verifier = oauth.generateRandomCodeVerifier()
      const state = oauth.generateRandomState()
      const authorizationUrl = new URL(as.authorization_endpoint!)
      authorizationUrl.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirectUri,
        scope: 'research.read research.search',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        resource: `${base}/api/v1`,
      }).toString()
      const callback = await approve(base, authorizationUrl.href)
      // The client checks state and iss (RFC 9207) itself.
      const params = oauth.validateAuthResponse(as, client, callback, state)

      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure),
      )
      expect(tokens.refresh_token).toMatch(/^lat_rt_/)
      const read = (token: string) =>
        oauth.protectedResourceRequest(
          token,
          'GET',
          new URL(`${base}/api/v1/posts?limit=1`),
          undefined,
          undefined,
          insecure,
        )
      expect((await read(tokens.access_token)).status).toBe(200)

      // Refresh: a new pair; the old refresh token, used again, ends the whole grant.
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
      )
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
      expect((await read(refreshed.access_token)).status).toBe(200)
      const reuse = await oauth
        .processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
        )
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect(reuse).toBeInstanceOf(oauth.ResponseBodyError)
      expect((reuse as oauth.ResponseBodyError).error).toBe('invalid_grant')
      const revoked = await read(refreshed.access_token).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(revoked).toBeInstanceOf(oauth.WWWAuthenticateChallengeError)
    },
  )

  it('keeps keys, identities and the signing key across a restart', async () => {
    const before = await openStore()
    const a = await serve(before)
    const key = (await (await fetch(`${a.base}/api/v1/keys`, { method: 'POST' })).json()) as { key: string }
    const { identity_assertion } = await registerAgent(a.base)
    a.server.close()
    await before.close()

    const after = await openStore()
    const b = await serve(after)
    opened.push({ store: after, server: b.server })
    const read = await fetch(`${b.base}/api/v1/posts`, { headers: { Authorization: `Bearer ${key.key}` } })
    expect(read.status).toBe(200)
    // The assertion names the first origin as issuer; the stored identity and key still verify it.
    const verified = await createTokenService({
      issuer: a.base,
      resources: protectedResources(a.base),
      key: await loadOrCreateSigningKey(after, SEALING_SECRET),
    }).verifyIdentityAssertion(identity_assertion)
    expect(await after.get(`identity:${verified.sub}`)).toMatchObject({ kind: 'anonymous' })
  })
})
