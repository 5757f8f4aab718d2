import express from 'express'
import { BODY_LIMITS } from '../defaults.ts'
import { SecurityEventError } from '../errors.ts'
import { json, ref } from './openapi-parts.ts'
import type { HandlerAction, Step } from '../http/action.ts'
import { bodyStep, isType } from '../http/forms.ts'

const SET_TYPE = 'application/secevent+jwt'
const readText = bodyStep(express.text({ type: () => true, limit: BODY_LIMITS.event }))

/** Reads the body; a body that cannot be read is refused in RFC 8935's terms, like every error here. */
const eventBody: Step = (call) =>
  readText(call)!.catch((err: unknown) => {
    const tooLarge = (err as { status?: number }).status === 413
    throw new SecurityEventError(
      'invalid_request',
      tooLarge ? 'The Security Event Token is too large.' : 'The body could not be read.',
      { cause: err },
    )
  })

/** POST /agent/event/notify: the RFC 8935 push receiver, which trusts no issuer on this host. */
export const receiveSecurityEvent: HandlerAction = {
  operation: () => ({
    tags: ['Agents'],
    summary: 'Security Event Token receiver (RFC 8935); clients do not call it',
    requestBody: {
      required: true,
      content: {
        [SET_TYPE]: {
          schema: {
            type: 'string',
            maxLength: BODY_LIMITS.event,
            description: 'A compact JWS (RFC 8417), at most 64 KB.',
          },
        },
      },
    },
    responses: {
      '400': {
        description: 'Every SET is refused: no issuer is trusted on this host.',
        content: json(ref('EventError'), {
          err: 'invalid_issuer',
          description: 'This host trusts no Security Event Token issuers.',
        }),
      },
      default: { description: 'Any other error, in the RFC 8935 shape.', content: json(ref('EventError')) },
    },
  }),
  handle: () => [
    eventBody,
    function receiveSecurityEvent({ req, res, body }) {
      res.setHeader('Cache-Control', 'no-store')
      if (!isType(req, [SET_TYPE]))
        throw new SecurityEventError('invalid_request', `Send a Security Event Token with Content-Type: ${SET_TYPE}.`)
      const token = typeof body === 'string' ? body.trim() : ''
      if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token))
        throw new SecurityEventError('invalid_request', 'The body must be one compact-serialised JWT.')
      if (decodeIssuer(token) === undefined)
        throw new SecurityEventError('invalid_request', 'The Security Event Token cannot be decoded.')
      // RFC 8935 §2.4: no issuer is trusted on this host, so no SET can be verified.
      throw new SecurityEventError('invalid_issuer', 'This host trusts no Security Event Token issuers.')
    },
  ],
}

function decodeIssuer(token: string): string | null | undefined {
  try {
    const [header, payload] = token.split('.')
    JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'))
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { iss?: unknown }
    return typeof claims.iss === 'string' ? claims.iss : null
  } catch {
    return undefined
  }
}
