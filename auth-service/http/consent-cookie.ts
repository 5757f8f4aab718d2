import type { IncomingMessage, ServerResponse } from 'node:http'
import { LIFETIMES } from '../defaults.ts'
import { randomSecret } from '../auth/secrets.ts'

const NAME = 'lattice_consent'

/**
 * The browser a consent page was shown to: a random value in an HttpOnly, SameSite=Strict cookie,
 * whose digest the consent transaction keeps. A decision posted from another browser (a forged
 * form) lacks it and is refused, even with a valid transaction id.
 */
export function consentBrowser(req: IncomingMessage, res: ServerResponse, secure: boolean): string {
  const known = browserOf(req)
  if (known) return known
  const value = randomSecret(32)
  const attributes = [
    `${NAME}=${value}`,
    'Path=/oauth2/authorize',
    `Max-Age=${LIFETIMES.consentTransaction}`,
    'HttpOnly',
    'SameSite=Strict',
  ]
  if (secure) attributes.push('Secure')
  res.appendHeader('Set-Cookie', attributes.join('; '))
  return value
}

/** The consent cookie's value, if the request carries a well-formed one. */
export function browserOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2)
    if (name === NAME && value && /^[A-Za-z0-9_-]{43}$/.test(value)) return value
  }
  return undefined
}
