import { existsSync } from 'node:fs'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { requestTarget } from '../../auth-service/http/request-target.ts'
import { securityHeaderList } from '../../auth-service/http/security-headers.ts'
import { hostCheck, refuseHost } from './host-check.ts'
import { injectIntoPages } from './inject.ts'
import { CLIENT_PATH, type LiveReload } from './live-reload.ts'

/**
 * The preview's origin: the service's own app, with the live-reload routes in front and the
 * client script added to its pages. Before any build has succeeded there is no site to serve,
 * so pages get a short placeholder that shows the problems and reloads once a build lands.
 * Only requests that name the preview by a loopback name or BASE_URL's host are answered
 * (host-check.ts).
 */
export function previewListener(
  app: RequestListener,
  live: LiveReload,
  siteDir: string,
  options: {
    /** BASE_URL: its scheme chooses the pages' headers, its host is a name the preview answers to. */
    baseUrl: string
    /** Awaited before an API request: the preview loads the index lazily. */
    beforeApi?: () => Promise<void>
  },
): RequestListener {
  const clientTag = (build: string, page = '') =>
    `<script src="${CLIENT_PATH}" data-build="${escapeAttribute(build)}" data-page="${page}" defer></script>`
  const inject = injectIntoPages(clientTag, () => live.state().build)
  const headers = securityHeaderList({ https: options.baseUrl.startsWith('https:') })
  const named = hostCheck(options.baseUrl)

  return (req, res) => {
    if (!named(req)) return refuseHost(req, res, options.baseUrl)
    const target = requestTarget(req.url ?? '')
    // A target that is no path is the app's to refuse (a 400), as under npm start.
    if (typeof target !== 'object') return app(req, res)
    const path = target.path
    if (live.handle(req, res, path)) return
    if (wantsPage(req) && !existsSync(siteDir)) return placeholder(res, headers, clientTag(live.state().build))
    if (options.beforeApi && path.startsWith('/api/')) {
      void options.beforeApi().then(() => inject(req, res, () => app(req, res)))
      return
    }
    inject(req, res, () => app(req, res))
  }
}

const wantsPage = (req: IncomingMessage) =>
  req.method === 'GET' && String(req.headers.accept ?? '').includes('text/html')

function placeholder(res: ServerResponse, headers: readonly string[], clientTag: string): void {
  // name, value, name, value…
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!)
  res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '1' })
  res.end(
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Preview: waiting for a build</title>${clientTag}</head>
<body><main><h1>Waiting for the first good build</h1>
<p>The site is being built: this page reloads by itself as soon as it is ready. If the build fails, what to fix ` +
      `shows here and in the terminal.</p></main></body></html>
`,
  )
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}
