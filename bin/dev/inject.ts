import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Adds a tag to every HTML page the app answers with, before `</head>` (or at the end when a page has
 * none); `tag` gets a digest of the page as the app wrote it. Only navigations are touched (their
 * Accept names text/html); the page is buffered, its validators dropped and `Cache-Control: no-store`
 * set, so a reload always gets the newest build. A response that calls writeHead itself (the API's
 * fast path) passes as is.
 */
export function injectIntoPages(
  tag: (build: string, page: string) => string,
  build: () => string,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    if (req.method !== 'GET' || !String(req.headers.accept ?? '').includes('text/html')) return next()
    // The file's own ETag would let the browser keep a page without the tag, or an older tag.
    delete req.headers['if-none-match']
    delete req.headers['if-modified-since']
    // Taken now, before the app reads the file: a build landing meanwhile makes the page
    // reload once more, never miss a reload.
    const builtFrom = build()

    const original = { writeHead: res.writeHead, write: res.write, end: res.end }
    const restore = () => Object.assign(res, original)
    const chunks: Buffer[] = []
    let html: boolean | undefined
    const isHtml = () => (html ??= /^text\/html\b/i.test(String(res.getHeader('Content-Type') ?? '')))
    const toBuffer = (chunk: unknown, encoding?: unknown): Buffer =>
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array)

    res.writeHead = function (this: typeof res, ...args: unknown[]) {
      restore()
      return (original.writeHead as (...a: unknown[]) => typeof res).apply(this, args)
    } as typeof res.writeHead

    res.write = function (this: typeof res, chunk: unknown, encoding?: unknown, callback?: unknown) {
      if (!isHtml()) {
        restore()
        return (original.write as (...a: unknown[]) => boolean).call(this, chunk, encoding, callback)
      }
      chunks.push(toBuffer(chunk, encoding))
      const cb = typeof encoding === 'function' ? encoding : callback
      if (typeof cb === 'function') process.nextTick(cb as () => void)
      return true
    } as typeof res.write

    res.end = function (this: typeof res, chunk?: unknown, encoding?: unknown, callback?: unknown) {
      if (!isHtml()) {
        restore()
        return (original.end as (...a: unknown[]) => typeof res).call(this, chunk, encoding, callback)
      }
      restore()
      if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding))
      const page = Buffer.concat(chunks)
      const body = insert(page.toString('utf8'), tag(builtFrom, createHash('sha1').update(page).digest('base64url')))
      res.removeHeader('ETag')
      res.removeHeader('Last-Modified')
      res.setHeader('Cache-Control', 'no-store')
      res.setHeader('Content-Length', Buffer.byteLength(body))
      const cb = [chunk, encoding, callback].find((a) => typeof a === 'function') as (() => void) | undefined
      return res.end(body, cb)
    } as typeof res.end

    next()
  }
}

function insert(html: string, snippet: string): string {
  const at = html.search(/<\/head>/i)
  return at < 0 ? html + snippet : html.slice(0, at) + snippet + html.slice(at)
}
