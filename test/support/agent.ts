/**
 * The agent flow as tests and the benchmark walk it: register an anonymous identity, exchange its
 * assertion for an access token. A target is anything supertest can send to: an Express app, an
 * http.Server, or an origin such as `http://127.0.0.1:8080`.
 */
import request from 'supertest'

export type Target = Parameters<typeof request>[0]
export type Headers = Record<string, string>

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

export interface Registration {
  registration_id: string
  identity_assertion: string
  claim_token: string
}

/** The token request's form fields for an identity assertion (plus `resource`, `scope`, …). */
export function exchangeForm(assertion: string, params: Record<string, string> = {}): Record<string, string> {
  return { grant_type: JWT_BEARER, assertion, ...params }
}

/** POST /agent/identity for an anonymous identity, as sent: for tests of refusals and limits. */
export function postRegistration(target: Target, headers: Headers = {}) {
  return request(target).post('/agent/identity').set(headers).send({ type: 'anonymous' })
}

/** POST /oauth2/token with the jwt-bearer grant, as sent: for tests of refusals and limits. */
export function postExchange(
  target: Target,
  assertion: string,
  params: Record<string, string> = {},
  headers: Headers = {},
) {
  return request(target).post('/oauth2/token').set(headers).type('form').send(exchangeForm(assertion, params))
}

/** A new anonymous identity; throws unless the service registers it. */
export async function registerAgent(target: Target, headers: Headers = {}): Promise<Registration> {
  return expectOk(await postRegistration(target, headers), 'registration') as Registration
}

/** Registers, then exchanges the assertion: an identity with a working access token. */
export async function agentToken(
  target: Target,
  params: Record<string, string> = {},
): Promise<Registration & { access_token: string }> {
  const registration = await registerAgent(target)
  const { access_token } = expectOk(
    await postExchange(target, registration.identity_assertion, params),
    'token exchange',
  ) as { access_token: string }
  return { ...registration, access_token }
}

function expectOk(res: { status: number; body: unknown; text: string }, what: string): unknown {
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${res.text}`)
  return res.body
}
