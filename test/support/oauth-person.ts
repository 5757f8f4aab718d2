/**
 * The person at the consent page, as tests play them: open the authorization URL, read the page's
 * form, post the decision with the page's cookie, and follow nothing: the answer's Location is
 * what the client's redirect URI would receive.
 */
import { createHash, randomBytes } from 'node:crypto'
import request from 'supertest'
import type { Target } from './agent.ts'

export interface ConsentPage {
  status: number
  html: string
  headers: Record<string, string>
  transaction: string
  cookie: string
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** GET the authorization URL (absolute, or a path with query) and read the consent form. */
export async function openConsent(target: Target, url: string): Promise<ConsentPage> {
  const res = await request(target).get(pathOf(url))
  const html = res.text
  const transaction = /name="transaction" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0]!)
    .join('; ')
  return { status: res.status, html, headers: res.headers as Record<string, string>, transaction, cookie }
}

/** POST the person's decision from the page; returns the status and the Location it sends the browser to. */
export async function decide(
  target: Target,
  page: Pick<ConsentPage, 'transaction' | 'cookie'>,
  decision: 'approve' | 'deny' = 'approve',
) {
  const res = await request(target)
    .post('/oauth2/authorize')
    .set('Cookie', page.cookie)
    .type('form')
    .send({ transaction: page.transaction, decision })
  return { status: res.status, location: res.headers.location as string | undefined, text: res.text }
}

/** Opens the page and approves; throws unless the browser is sent to the redirect URI. */
export async function approve(target: Target, url: string): Promise<URL> {
  const page = await openConsent(target, url)
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}: ${page.html.slice(0, 500)}`)
  const { status, location } = await decide(target, page)
  if (status !== 303 || !location) throw new Error(`the decision answered ${status}`)
  return new URL(location)
}

function pathOf(url: string): string {
  if (url.startsWith('/')) return url
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}
