/**
 * The grant races of test/security/grants.test.ts, for any store: two replicas of the service on
 * one store, and one round of each race (twenty concurrent uses of one code or refresh token).
 */
import { createServer, type Server } from 'node:http'
import { expect } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { testDeps } from './index.ts'
import { approve, pkce } from './oauth-person.ts'

const REDIRECT = 'https://app.example/callback'
export const CONCURRENCY = 20

/** Two replicas of the service on one store (two connections on Redis), each a real HTTP server. */
export async function replicas(open: () => Promise<Store>) {
  const stores = [await open(), await open()]
  const servers: Server[] = []
  const origins: string[] = []
  for (const store of stores) {
    const server = createServer(createApp(await testDeps({ store })))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    servers.push(server)
    origins.push(`http://127.0.0.1:${(server.address() as { port: number }).port}`)
  }
  return {
    origins,
    /** The i-th request goes to the replica i mod 2. */
    at: (i: number) => origins[i % 2]!,
    async close() {
      for (const server of servers) await new Promise((r) => server.close(r))
      for (const store of stores) await store.close()
    },
  }
}

export const form = (origin: string, path: string, fields: Record<string, string>) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
export const token = (origin: string, fields: Record<string, string>) => form(origin, '/oauth2/token', fields)
export const read = (origin: string, accessToken: string) =>
  fetch(`${origin}/api/v1/posts?limit=1`, { headers: { authorization: `Bearer ${accessToken}` } })

export async function json(res: Response) {
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

/** A client, a consent approved on the first replica, and the code it sent back. */
export async function codeFor(origin: string, extra: Record<string, string> = {}) {
  const registered = await fetch(`${origin}/oauth2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Race client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  })
  const { client_id } = (await registered.json()) as { client_id: string }
  const { verifier, challenge } = pkce()
  const query = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  })
  const back = await approve(origin, `/oauth2/authorize?${query}`)
  const fields = {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id,
  }
  return { client_id, fields }
}

export type Replicas = Awaited<ReturnType<typeof replicas>>

/** One round: of twenty concurrent redemptions of a code one wins, and the replay revokes the winner's tokens. */
export async function raceCodeRedemption(service: Replicas, round: number) {
  const { fields } = await codeFor(service.origins[0]!)
  const answers = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => token(service.at(i), fields).then(json)),
  )
  const won = answers.filter((a) => a.status === 200)
  expect(won, `round ${round}`).toHaveLength(1)
  for (const lost of answers.filter((a) => a.status !== 200))
    expect(lost).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.any(String) } })
  // Reuse was seen (the code came twenty times): everything the winner holds is revoked.
  const { access_token, refresh_token } = won[0]!.body
  for (const origin of service.origins) expect((await read(origin, access_token!)).status, `round ${round}`).toBe(401)
  const again = await json(
    await token(service.origins[1]!, {
      grant_type: 'refresh_token',
      refresh_token: refresh_token!,
      client_id: fields.client_id,
    }),
  )
  expect(again.body.error).toBe('invalid_grant')
}

/** One round: of twenty concurrent refreshes one wins, and the reuse revokes every token of the grant. */
export async function raceRefresh(service: Replicas, round: number) {
  const { fields } = await codeFor(service.origins[0]!)
  const first = await json(await token(service.origins[0]!, fields))
  expect(first.status).toBe(200)
  const rotate = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: fields.client_id }
  const answers = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => token(service.at(i), rotate).then(json)),
  )
  const won = answers.filter((a) => a.status === 200)
  expect(won, `round ${round}`).toHaveLength(1)
  for (const lost of answers.filter((a) => a.status !== 200)) expect(lost.body.error).toBe('invalid_grant')
  // The first access token, the winner's, and the winner's next refresh token: all revoked.
  for (const access of [first.body.access_token!, won[0]!.body.access_token!])
    expect((await read(service.at(round), access)).status).toBe(401)
  const next = await json(await token(service.origins[0]!, { ...rotate, refresh_token: won[0]!.body.refresh_token! }))
  expect(next.body.error).toBe('invalid_grant')
}
