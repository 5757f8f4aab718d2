import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Call } from './action.ts'
import { AUTHORIZE_TEMPLATE } from '../../model/build-dir.ts'
import { CONTENT_SECURITY_POLICY } from './security-headers.ts'

const ESCAPABLE = /[&<>'"]/g
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' }
/** Text made safe for HTML content and quoted attributes. */
export const escapeHtml = (s: string) => s.replace(ESCAPABLE, (c) => ENTITY[c]!)

/** Without a build (API-only use), the same markers in a bare page. */
const FALLBACK =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
  '<title>@@title@@</title></head><body><main>@@content@@</main></body></html>'

/**
 * The template of the build being served (site/pages/authorize-template.astro, kept beside the
 * site), read per page: a rebuild swaps it like the rest of the site, and the pages are rare.
 */
async function template(siteDir: string | undefined): Promise<string> {
  if (!siteDir) return FALLBACK
  return readFile(join(siteDir, '..', AUTHORIZE_TEMPLATE), 'utf8').catch(() => FALLBACK)
}

/**
 * Sends an authorization page: `title` is text (escaped here), `content` HTML whose every
 * interpolated value the caller escaped. Never cached, never framed, no Referer leaves it (its
 * URL carries the request's state), and its form may post here and be redirected to
 * `formTarget` only (CSP form-action also governs the redirect that follows a form's POST).
 */
export async function sendAuthorizationPage(
  call: Call,
  siteDir: string | undefined,
  page: { status: number; title: string; content: string; formTarget?: string },
): Promise<void> {
  const html = (await template(siteDir))
    .replaceAll('@@title@@', escapeHtml(page.title))
    .replace('@@content@@', () => page.content)
  const csp = { ...CONTENT_SECURITY_POLICY, 'form-action': ["'self'", ...(page.formTarget ? [page.formTarget] : [])] }
  const policy = Object.entries(csp)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
  const body = Buffer.from(html)
  const own = [
    ...['Content-Security-Policy', policy, 'Cache-Control', 'no-store', 'Referrer-Policy', 'no-referrer'],
    ...['X-Frame-Options', 'DENY', 'Content-Type', 'text/html; charset=utf-8', 'Content-Length', String(body.length)],
  ]
  // The page's own security headers take the place of the ones every page carries.
  const replaced = new Set(own.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()))
  const kept = call.headers.filter((_, i, all) => !replaced.has(all[i - (i % 2)]!.toLowerCase()))
  call.res.writeHead(page.status, [...kept, ...own]).end(call.req.method === 'HEAD' ? undefined : body)
}
