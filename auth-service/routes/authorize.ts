import { isPkceValue, startConsent, type AuthorizationRequest } from '../auth/authorization-codes.ts'
import { resolveClient } from '../auth/clients.ts'
import { randomSecret } from '../auth/secrets.ts'
import { grantedScope, requestedResource } from '../auth/grant-request.ts'
import { GRANTS } from '../auth/policy.ts'
import { FIELD_LIMITS, type FieldName } from '../defaults.ts'
import { redirectUriMatches } from '../auth/redirect-uris.ts'
import { ServiceError } from '../errors.ts'
import { sendAuthorizationPage } from '../http/authorization-page.ts'
import { consentBrowser } from '../http/consent-cookie.ts'
import { optionalField, requiredField } from '../http/forms.ts'
import { authorizationErrorPage, consentContent } from './authorization-pages.ts'
import type { HandlerAction } from '../http/action.ts'
import { markup } from './openapi-parts.ts'

type Query = Record<string, unknown>

/**
 * GET /oauth2/authorize: the authorization endpoint (RFC 6749 §4.1.1 with PKCE, RFC 7636). It
 * checks the whole request and shows the consent page. Every refusal here is an error page at
 * this origin, never a redirect: a dynamically registered client is not trusted, and a redirect
 * before the person has seen the consent page would make this origin an open redirector
 * (RFC 9700 §4.11.2). Only the person's decision goes back to the redirect URI.
 */
export const authorize: HandlerAction = {
  operation: ({ url }) => ({
    tags: ['Agents'],
    summary: 'Authorization endpoint: the consent page (authorization code with PKCE, S256)',
    description:
      'Opened in the person’s browser. The client is registered (POST /oauth2/register) or its client_id is the ' +
      'https URL of its client ID metadata document. Answers the consent page (HTML); ' +
      'any refusal is an HTML error page here, never a redirect (RFC 9700 §4.11.2). ' +
      'Only the person’s decision goes back to the redirect URI.',
    parameters: [
      param('response_type', 'Always `code`.', true, { type: 'string', const: 'code' }, 'code'),
      param(
        'client_id',
        'A registered client_id, or the https URL of the client’s metadata document.',
        true,
        {},
        'https://app.example/oauth/client.json',
      ),
      param(
        'redirect_uri',
        'One of the client’s redirect URIs, exactly (a loopback one on any port).',
        true,
        { type: 'string', format: 'uri' },
        'http://127.0.0.1:8976/cb',
      ),
      param(
        'code_challenge',
        'RFC 7636: BASE64URL(SHA256(code_verifier)), 43 characters.',
        true,
        {},
        'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      ),
      param('code_challenge_method', 'Always `S256`.', true, { type: 'string', const: 'S256' }, 'S256'),
      param('scope', 'Space-separated scopes; all of them when omitted.', false),
      param('resource', `RFC 8707: ${url('getCatalog')} (the default) or the MCP endpoint.`, false, {
        type: 'string',
        format: 'uri',
      }),
      param('state', 'Returned unchanged with the answer.', false),
    ],
    responses: {
      '200': { description: 'The consent page (HTML).', content: markup('text/html') },
      '400': {
        description: 'The request cannot go on: an HTML error page naming the error code, never a redirect.',
        content: markup('text/html'),
      },
    },
  }),
  handle: (ctx) => [
    async function authorize(call) {
      const query: Query = ctx.parseQuery(call.target.search)
      // Everything is checked before anything is written or anyone is redirected.
      const clientId = requiredField(query, 'client_id')
      const redirectUri = requiredField(query, 'redirect_uri')
      const client = await resolveClient(ctx.store, clientId, ctx.clientMetadata)
      if (!redirectUriMatches(client.redirect_uris, redirectUri))
        throw new ServiceError(
          'invalid_redirect_uri',
          'The redirect_uri is not one this client registered; it must match exactly.',
        )
      const state = optionalField(query, 'state')
      if (requiredField(query, 'response_type') !== 'code')
        throw new ServiceError('unsupported_response_type', 'Only response_type=code is supported.')
      const challenge = optionalField(query, 'code_challenge')
      if (challenge === undefined || !isPkceValue(challenge))
        throw new ServiceError(
          'invalid_request',
          'PKCE is required: send code_challenge (43 to 128 characters) with code_challenge_method=S256.',
        )
      if (optionalField(query, 'code_challenge_method') !== 'S256')
        throw new ServiceError('invalid_request', 'Only code_challenge_method=S256 is supported (plain is not).')
      const request = {
        clientId,
        ...(client.client_name ? { clientName: client.client_name } : {}),
        clientKind: client.kind,
        refresh: client.grant_types.includes(GRANTS.refreshToken),
        redirectUri,
        codeChallenge: challenge,
        scope: grantedScope(optionalField(query, 'scope')),
        resource: requestedResource(ctx.tokens.resources, optionalField(query, 'resource')),
        ...(state !== undefined ? { state } : {}),
      } satisfies AuthorizationRequest
      // HEAD is safe (RFC 9110 §9.2.1, §9.3.2): it answers as GET would, with a transaction id of the
      // same length that is never stored, and neither starts a consent nor sets the browser cookie.
      const transaction =
        call.req.method === 'HEAD'
          ? randomSecret(32)
          : await startConsent(ctx.store, request, consentBrowser(call.req, call.res, ctx.baseUrl.startsWith('https:')))
      await sendAuthorizationPage(call, ctx.siteDir, {
        status: 200,
        title: 'Allow access',
        content: consentContent(request, transaction, new URL(ctx.url('authorize')).pathname),
        formTarget: new URL(redirectUri).origin,
      })
    },
  ],
  refuse: (ctx) => authorizationErrorPage(ctx.siteDir),
}

/** A query parameter, bounded as the code bounds it (FIELD_LIMITS). */
function param(name: FieldName, description: string, required: boolean, schema: object = {}, example?: string) {
  const bounded =
    'const' in schema ? { type: 'string', ...schema } : { type: 'string', maxLength: FIELD_LIMITS[name], ...schema }
  return { name, in: 'query', required, description, schema: bounded, ...(example === undefined ? {} : { example }) }
}
