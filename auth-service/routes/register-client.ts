import express from 'express'
import { registerClient as register, validateClientMetadata } from '../auth/clients.ts'
import { CLIENT_METADATA_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { JSON_TYPES, bodyFields, bodyStep, isType, sendJson } from '../http/forms.ts'
import { READ_ERRORS, error, json, noStore, ref } from './openapi-parts.ts'
import type { HandlerAction } from '../http/action.ts'

const registrationBody = bodyStep(express.json({ limit: CLIENT_METADATA_LIMITS.registrationBody, type: JSON_TYPES }))

/**
 * POST /oauth2/register: dynamic client registration (RFC 7591) for public clients only, the
 * fallback for clients without a client ID metadata document (which 2026 MCP clients use first).
 * Redirect URIs are https or loopback http; no secret is issued, PKCE binds each code to its client.
 */
export const registerClient: HandlerAction = {
  operation: () => ({
    tags: ['Agents'],
    summary: 'Register an OAuth client (RFC 7591; public clients, token_endpoint_auth_method none)',
    requestBody: {
      required: true,
      content: json(ref('ClientMetadata'), { client_name: 'My agent', redirect_uris: ['http://127.0.0.1:8976/cb'] }),
    },
    responses: {
      '201': {
        description: 'The registered client (RFC 7591 §3.2.1).',
        headers: noStore,
        content: json(ref('ClientInformation')),
      },
      '400': error('RFC 7591 §3.2.2 errors, or a malformed body.', [
        'invalid_redirect_uri',
        'invalid_client_metadata',
        'invalid_request',
      ]),
      '503': READ_ERRORS['503'],
    },
  }),
  handle: (ctx) => [
    registrationBody,
    async function registerClient(call) {
      call.res.setHeader('Cache-Control', 'no-store')
      if (!isType(call.req, JSON_TYPES))
        throw new ServiceError(
          'invalid_request',
          'Send the client metadata as JSON with Content-Type: application/json.',
        )
      const metadata = validateClientMetadata(bodyFields(call.body))
      const { client, issuedAt } = await register(ctx.store, metadata)
      sendJson(call, 201, {
        client_id: client.client_id,
        client_id_issued_at: issuedAt,
        ...(client.client_name ? { client_name: client.client_name } : {}),
        redirect_uris: client.redirect_uris,
        grant_types: client.grant_types,
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      })
    },
  ],
}
