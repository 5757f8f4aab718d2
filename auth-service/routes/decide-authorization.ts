import { issueCode, takeConsent } from '../auth/authorization-codes.ts'
import { registerAnonymousIdentity } from '../auth/identities.ts'
import { AuthorizationRedirectError, ServiceError, authorizationResponseUrl } from '../errors.ts'
import { browserOf } from '../http/consent-cookie.ts'
import { formBody, formFields, requiredField, seeOther } from '../http/forms.ts'
import { json, markup, ref } from './openapi-parts.ts'
import { authorizationErrorPage } from './authorization-pages.ts'
import type { HandlerAction } from '../http/action.ts'

/**
 * POST /oauth2/authorize: the person's decision on the consent page. The transaction is single
 * use and bound to the browser it was shown to. Approving creates an anonymous identity, as
 * POST /agent/identity does, and sends the client a code; denying sends `access_denied`.
 */
export const decideAuthorization: HandlerAction = {
  operation: () => ({
    tags: ['Agents'],
    summary: 'The person’s decision on the consent page (a form post of the page; not for clients)',
    requestBody: {
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: ref('AuthorizationDecision') } },
    },
    responses: {
      '303': {
        description: 'Back to the client’s redirect URI with code, state and iss, or with error=access_denied.',
        headers: { Location: { description: 'The client’s redirect URI with the answer in its query.' } },
        content: json(ref('Error')),
      },
      '400': {
        description: 'The transaction is unknown, used, expired or from another browser: an HTML error page.',
        content: markup('text/html'),
      },
    },
  }),
  handle: (ctx) => [
    formBody,
    async function decideAuthorization(call) {
      call.res.setHeader('Cache-Control', 'no-store')
      const fields = formFields(call)
      const decision = requiredField(fields, 'decision')
      if (decision !== 'approve' && decision !== 'deny')
        throw new ServiceError('invalid_request', '"decision" must be "approve" or "deny".')
      const request = await takeConsent(ctx.store, requiredField(fields, 'transaction'), browserOf(call.req))
      if (request === undefined)
        throw new ServiceError(
          'invalid_request',
          'This consent page has expired or was already answered. Start again from the application.',
        )
      if (request === 'wrong_browser')
        throw new ServiceError(
          'invalid_request',
          'This decision did not come from the browser the consent page was shown in. ' +
            'Start again from the application.',
        )
      const target = { redirectUri: request.redirectUri, state: request.state, issuer: ctx.baseUrl }
      if (decision === 'deny') throw new AuthorizationRedirectError('access_denied', 'The person declined.', target)
      if (!ctx.anonymousRegistration)
        throw new AuthorizationRedirectError('access_denied', 'This host does not create identities now.', target)
      const identity = await registerAnonymousIdentity(ctx.store)
      ctx.onIssued('identity')
      const code = await issueCode(ctx.store, { ...request, sub: identity.id })
      seeOther(call, authorizationResponseUrl(request.redirectUri, { code, state: request.state, iss: ctx.baseUrl }))
    },
  ],
  refuse: (ctx) => authorizationErrorPage(ctx.siteDir),
}
