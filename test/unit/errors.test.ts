import { describe, expect, it } from 'vitest'
import {
  ERROR_CODES,
  EVENT_ERROR_CODES,
  InvalidTokenError,
  type LatticeError,
  SecurityEventError,
  ServiceError,
  SigningKeyError,
  StoreUnavailableError,
} from '../../auth-service/errors.ts'

describe('the error family', () => {
  it('chooses the wire shape by kind: RFC 6749 for the service, RFC 8935 for the event receiver', () => {
    expect(new ServiceError('invalid_grant', 'Register again.').response()).toEqual({
      status: 400,
      headers: {},
      body: { error: 'invalid_grant', error_description: 'Register again.' },
    })
    expect(new SecurityEventError('invalid_issuer', 'No issuer is trusted.').response()).toEqual({
      status: 400,
      headers: {},
      body: { err: 'invalid_issuer', description: 'No issuer is trusted.' },
    })
    expect(
      new ServiceError('method_not_allowed', 'Use GET.', { headers: { Allow: 'GET, HEAD' } }).response(),
    ).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD' } })
  })

  it('never sends the message of an internal error: a store outage is a 503, anything else a 500', () => {
    const outage = new StoreUnavailableError('Redis is unreachable (reconnecting).').response()
    expect(outage).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '5' },
      body: { error: 'temporarily_unavailable' },
    })
    expect(JSON.stringify(outage.body)).not.toContain('Redis')
    for (const e of [new SigningKeyError('sealed with another secret')]) {
      expect(e.response()).toMatchObject({ status: 500, body: { error: 'server_error' } })
      expect(JSON.stringify(e.response().body)).not.toContain(e.message)
    }
  })

  it('has a code from its closed set on every member, and its own name', () => {
    const members: LatticeError[] = [
      new ServiceError('not_found', 'x'),
      new SecurityEventError('access_denied', 'x'),
      new StoreUnavailableError('x'),
      new InvalidTokenError('x'),
      new SigningKeyError('x'),
    ]
    const internal = ['store_unavailable', 'token_invalid', 'signing_key_unusable']
    for (const e of members) {
      expect(e).toBeInstanceOf(Error)
      expect([...ERROR_CODES, ...EVENT_ERROR_CODES, ...internal]).toContain(e.code)
      expect(e.name).toBe(e.constructor.name)
    }
  })
})
