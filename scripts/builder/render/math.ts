/**
 * TeX to KaTeX HTML and MathML, as rehype-katex renders it: a formula KaTeX rejects is shown
 * as KaTeX's error markup instead of failing the article. KaTeX is built for untrusted input:
 * with `trust` off, the commands that could write links, classes, styles or images
 * (\href, \htmlClass, \includegraphics…) render as errors, and all text is escaped. So its
 * output is not passed through the article sanitiser, which would only strip MathML's
 * `mathvariant` and `accent` and triple the cost of a formula. Formulas that recur come from
 * a cache.
 */
import katex from 'katex'
import { RENDER_OPTIONS } from './options.ts'
import { BoundedCache } from '../bounded-cache.ts'

const cache = new BoundedCache<string>(5_000)
const escapeText = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

function typeset(tex: string, displayMode: boolean): string {
  const options = { ...RENDER_OPTIONS.katex, displayMode }
  try {
    return katex.renderToString(tex, { ...options, throwOnError: true })
  } catch {
    try {
      return katex.renderToString(tex, { ...options, throwOnError: false, strict: 'ignore' })
    } catch (error) {
      return (
        `<span class="katex-error" style="color:#cc0000" title="${escapeText(String(error))}">` +
        `${escapeText(tex)}</span>`
      )
    }
  }
}

export function renderMath(tex: string, displayMode: boolean): string {
  const key = `${displayMode ? 'D' : 'I'}${tex}`
  let html = cache.get(key)
  if (html === undefined) {
    html = typeset(tex, displayMode)
    cache.set(key, html)
  }
  return html
}
