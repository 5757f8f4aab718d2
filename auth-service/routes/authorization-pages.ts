/** What the two authorization endpoint actions share: the pages' content and the error page. */
import type { Call } from '../http/action.ts'
import type { AuthorizationRequest } from '../auth/authorization-codes.ts'
import { ServiceError } from '../errors.ts'
import { escapeHtml, sendAuthorizationPage } from '../http/authorization-page.ts'
import { SITE_PAGES } from './documents.ts'

const SCOPE_MEANING: Record<string, string> = {
  'research.read': 'list and read the articles',
  'research.search': 'search the articles',
}

/** The consent page's content: who asks, for what, where the answer goes; a form to decide. */
export function consentContent(request: AuthorizationRequest, transaction: string, action: string): string {
  const clientUrl = request.clientKind === 'metadata_document' ? new URL(request.clientId) : undefined
  const name = request.clientName ?? clientUrl?.host ?? 'An unnamed application'
  const identifiedBy = clientUrl
    ? `its metadata document at <strong>${escapeHtml(clientUrl.host)}</strong> (${escapeHtml(request.clientId)})`
    : `a registration made here by the application itself (client <code>${escapeHtml(request.clientId)}</code>); ` +
      'its name is its own claim'
  const scopes = request.scope
    .split(' ')
    .map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_MEANING[s] ?? s)}</li>`)
    .join('')
  return (
    `<h1 class="page-title">Allow <span class="client">${escapeHtml(name)}</span> to use this site for you?</h1>
<p class="lede">An application asks for access to the research articles here. There are no accounts: ` +
    `continuing creates a new anonymous identity that this application will use. Nothing about you is shared.</p>
<section class="panel" aria-labelledby="consent-details">
<h2 id="consent-details">What is asking, and for what</h2>
<dl>
<dt>Application</dt><dd class="client">${escapeHtml(name)}</dd>
<dt>Known by</dt><dd>${identifiedBy}</dd>
<dt>Returns you to</dt><dd><strong>${escapeHtml(new URL(request.redirectUri).host)}</strong></dd>
<dt>Access</dt><dd><ul>${scopes}</ul></dd>
<dt>At</dt><dd><code>${escapeHtml(request.resource)}</code></dd>
</dl>
</section>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="transaction" value="${escapeHtml(transaction)}">
<div class="decision">
<button type="submit" name="decision" value="approve">Continue</button>
<button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
</div>
</form>
<p class="hint">Continue only if you have just asked ${escapeHtml(name)} to connect to this site. ` +
    `You can revoke its access at any time (see <a href="${SITE_PAGES.guide}">auth.md</a>).</p>`
  )
}

/**
 * Refusals before the client and its redirect URI are known, or after the transaction is gone:
 * shown on a page, never redirected (RFC 6749 §4.1.2.1), with the error's status.
 */
export function authorizationErrorPage(
  siteDir: string | undefined,
): (err: unknown, call: Call) => Promise<void> | false {
  return function authorizationErrorPage(err, call) {
    if (!(err instanceof ServiceError) || call.res.headersSent) return false
    for (const [name, value] of Object.entries(err.headers)) call.res.setHeader(name, value)
    return sendAuthorizationPage(call, siteDir, {
      status: err.status,
      title: 'This authorization cannot go on',
      content:
        `<h1 class="page-title">This authorization cannot go on</h1>
<p class="lede">${escapeHtml(err.message)}</p>
<p>Error code: <code>${escapeHtml(err.code)}</code>. Go back to the application and start again; ` +
        `if it keeps happening, the application's developer can read <a href="${SITE_PAGES.guide}">auth.md</a>.</p>`,
    })
  }
}
