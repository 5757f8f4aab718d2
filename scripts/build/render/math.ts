/**
 * TeX to KaTeX HTML and MathML, as rehype-katex renders it: a formula KaTeX rejects is shown
 * as KaTeX's error markup instead of failing the article. The result passes the article
 * sanitiser once per distinct formula and is cached, so a formula that recurs costs nothing.
 */
import katex from 'katex'
import { fromHtml } from 'hast-util-from-html'
import { sanitize } from 'hast-util-sanitize'
import { toHtml } from 'hast-util-to-html'
import { RENDER_OPTIONS } from './options.ts'
import { BoundedCache } from './cache.ts'

const cache = new BoundedCache<string>(5_000)

function typeset(tex: string, displayMode: boolean): string {
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: true })
  } catch {
    try {
      return katex.renderToString(tex, { displayMode, throwOnError: false, strict: 'ignore' })
    } catch (error) {
      const title = String(error).replace(/[&"<]/g, (c) => `&#${c.charCodeAt(0)};`)
      const text = tex.replace(/[&<]/g, (c) => `&#${c.charCodeAt(0)};`)
      return `<span class="katex-error" style="color:#cc0000" title="${title}">${text}</span>`
    }
  }
}

export function renderMath(tex: string, displayMode: boolean): string {
  const key = `${displayMode ? 'D' : 'I'}${tex}`
  let html = cache.get(key)
  if (html === undefined) {
    html = toHtml(sanitize(fromHtml(typeset(tex, displayMode), { fragment: true }), RENDER_OPTIONS.sanitize))
    cache.set(key, html)
  }
  return html
}
