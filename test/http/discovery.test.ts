import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { createApp } from '../../auth-service/app.ts'
import { registerAgent } from '../support/agent.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const deps = await testDeps()
const app = createApp(deps)

describe('protected resource metadata (RFC 9728)', () => {
  it.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/v1'])(
    'is served at %s with every field',
    async (path) => {
      const res = await request(app).get(path)
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(res.body).toMatchObject({
        resource: `${BASE_URL}/api/v1`,
        authorization_servers: [BASE_URL],
        scopes_supported: ['research.read', 'research.search'],
        bearer_methods_supported: ['header'],
        resource_name: expect.any(String),
        resource_logo_uri: expect.stringMatching(new RegExp(`^${BASE_URL}/`)),
      })
    },
  )
})

describe('authorization server metadata (RFC 8414)', () => {
  it('names the endpoints, grants, auth methods and the agent_auth profile', async () => {
    const res = await request(app).get('/.well-known/oauth-authorization-server')
    expect(res.status).toBe(200)
    const m = res.body
    expect(m).toMatchObject({
      issuer: BASE_URL,
      authorization_endpoint: `${BASE_URL}/oauth2/authorize`,
      token_endpoint: `${BASE_URL}/oauth2/token`,
      registration_endpoint: `${BASE_URL}/oauth2/register`,
      revocation_endpoint: `${BASE_URL}/oauth2/revoke`,
      jwks_uri: `${BASE_URL}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: [
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
        'authorization_code',
        'refresh_token',
        'urn:agent-auth:grant-type:claim',
      ],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      agent_auth: {
        skill: `${BASE_URL}/auth.md`,
        identity_endpoint: `${BASE_URL}/agent/identity`,
        claim_endpoint: `${BASE_URL}/agent/identity/claim`,
        events_endpoint: `${BASE_URL}/agent/event/notify`,
      },
    })
    expect(m.identity_types_supported.map((t: { type: string }) => t.type)).toEqual([
      'anonymous',
      'identity_assertion',
      'service_auth',
    ])
    const idAssertion = m.identity_types_supported.find((t: { type: string }) => t.type === 'identity_assertion')
    expect(idAssertion.assertion_types_supported).toEqual(['urn:ietf:params:oauth:token-type:id-jag'])
    expect(m).not.toHaveProperty('assertion_types_supported')
  })
})

describe('JWKS', () => {
  it('publishes the public signing key, which verifies issued tokens', async () => {
    const res = await request(app).get('/.well-known/jwks.json')
    expect(res.status).toBe(200)
    expect(res.body.keys).toHaveLength(1)
    const [key] = res.body.keys
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: deps.signingKey.kid })
    expect(key).not.toHaveProperty('d')

    const reg = await registerAgent(app)
    const { payload } = await jwtVerify(reg.identity_assertion, createLocalJWKSet(res.body), { issuer: BASE_URL })
    expect(payload.sub).toBe(reg.registration_id)
  })

  it('is the same key for every app sharing a store (create-if-absent)', async () => {
    const again = await testDeps({ store: deps.store })
    expect(again.signingKey.kid).toBe(deps.signingKey.kid)
  })
})
