/**
 * The authorization code flow (RFC 6749 §4.1, with PKCE) driven against an app: a registered
 * client, its authorization requests, the code redemption and refresh, and a read with the token.
 */
import request from 'supertest'
import { expect } from 'vitest'
import type { createApp } from '../../auth-service/app.ts'
import { BASE_URL } from './index.ts'
import { approve, pkce } from './oauth-person.ts'

export const RESOURCE = `${BASE_URL}/api/v1`
export const MCP = `${BASE_URL}/mcp`
export const REDIRECT = 'https://app.example/callback'
export const LOOPBACK = 'http://127.0.0.1/callback'

/** The steps of the flow against `app`. */
export function codeFlow(app: ReturnType<typeof createApp>) {
  async function registerClient(metadata: object = {}) {
    const res = await request(app)
      .post('/oauth2/register')
      .send({
        client_name: 'Test client',
        redirect_uris: [REDIRECT, LOOPBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        ...metadata,
      })
    expect(res.status, res.text).toBe(201)
    return res.body as { client_id: string }
  }

  function authorizeUrl(params: Record<string, string | undefined>): string {
    const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))
    return `/oauth2/authorize?${query}`
  }

  /** A full authorization request's parameters for a client, with a fresh PKCE pair. */
  function requestFor(clientId: string, overrides: Record<string, string | undefined> = {}) {
    const { verifier, challenge } = pkce()
    const params = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-123',
      resource: RESOURCE,
      ...overrides,
    }
    return { verifier, params, url: authorizeUrl(params) }
  }

  const redeem = (fields: Record<string, string>) =>
    request(app)
      .post('/oauth2/token')
      .type('form')
      .send({ grant_type: 'authorization_code', ...fields })
  const refresh = (fields: Record<string, string>) =>
    request(app)
      .post('/oauth2/token')
      .type('form')
      .send({ grant_type: 'refresh_token', ...fields })
  const read = (token: string) => request(app).get('/api/v1/posts').set('Authorization', `Bearer ${token}`)

  /** Walks consent and code exchange; returns the token response. */
  async function tokensFor(clientId: string, overrides: Record<string, string | undefined> = {}) {
    const { verifier, params, url } = requestFor(clientId, overrides)
    const back = await approve(app, url)
    const code = back.searchParams.get('code')!
    const res = await redeem({ code, code_verifier: verifier, redirect_uri: params.redirect_uri!, client_id: clientId })
    expect(res.status, res.text).toBe(200)
    return { ...(res.body as { access_token: string; refresh_token?: string; scope: string }), code, verifier, params }
  }

  return { registerClient, authorizeUrl, requestFor, redeem, refresh, read, tokensFor }
}
