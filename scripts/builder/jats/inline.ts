/**
 * The inline content of an article's rendered HTML in JATS: phrase elements, links (out as
 * `ext-link`, to a numbered part or a reference as `xref`) and inline math (its TeX in
 * `tex-math`), with the helpers body.ts reads elements with.
 */
import type { Element, ElementContent, RootContent } from 'hast'
import { refId, xmlId } from './refs.ts'
import { el, escapeXml, textEl } from './xml.ts'

export const classes = (e: Element) => {
  const c = e.properties.className
  return Array.isArray(c) ? c.map(String) : []
}
export const has = (e: Element, name: string) => classes(e).includes(name)
export const prop = (e: Element, name: string) => {
  const v = e.properties[name]
  return typeof v === 'string' ? v : undefined
}
/** An element's id as an XML ID. */
export const idOf = (e: Element) => {
  const id = prop(e, 'id')
  return id === undefined ? undefined : xmlId(id)
}
export const isElement = (n: RootContent | ElementContent): n is Element => n.type === 'element'

/** The plain text of a node. */
export function textOf(n: RootContent | ElementContent): string {
  if (n.type === 'text') return n.value
  return isElement(n) ? n.children.map(textOf).join('') : ''
}

/** Where relative links and images point: the site's origin. */
export interface Context {
  baseUrl: string
}

/** TeX from a KaTeX rendering's annotation, without its `\tag` (the label carries the number). */
export function texOf(e: Element): string {
  const find = (n: ElementContent): string | undefined => {
    if (!isElement(n)) return undefined
    if (n.tagName === 'annotation') return textOf(n)
    for (const c of n.children) {
      const t = find(c)
      if (t !== undefined) return t
    }
    return undefined
  }
  const tex = find(e) ?? textOf(e)
  return tex
    .replace(/^%\n/, '')
    .replace(/\\tag\*?\{[^}]*\}/g, '')
    .trim()
}

const XREF_TYPES: Record<string, string> = { fig: 'fig', tbl: 'table', eq: 'disp-formula', sec: 'sec' }

/** Inline content: text and phrase elements. */
export function inline(nodes: readonly ElementContent[], cx: Context): string {
  return nodes.map((n) => inlineNode(n, cx)).join('')
}

function inlineNode(n: ElementContent, cx: Context): string {
  if (n.type === 'text') return escapeXml(n.value)
  if (!isElement(n)) return ''
  if (has(n, 'katex')) return el('inline-formula', {}, textEl('tex-math', texOf(n)))
  if (has(n, 'citation')) {
    const keys = String(n.properties.dataCites ?? '')
      .split(/\s+/)
      .filter(Boolean)
    const shown = n.children.find((c) => isElement(c) && c.tagName === 'button')
    const rid = keys.map(refId).join(' ')
    return el('xref', { 'ref-type': 'bibr', rid }, escapeXml(shown ? textOf(shown) : textOf(n)))
  }
  switch (n.tagName) {
    case 'em':
    case 'i':
      return el('italic', {}, inline(n.children, cx))
    case 'strong':
    case 'b':
      return el('bold', {}, inline(n.children, cx))
    case 'code':
    case 'kbd':
      return el('monospace', {}, escapeXml(textOf(n)))
    case 'sub':
    case 'sup':
      return el(n.tagName, {}, inline(n.children, cx))
    case 'del':
    case 's':
      return el('strike', {}, inline(n.children, cx))
    case 'br':
      return ' '
    case 'img':
      return el('inline-graphic', { 'xlink:href': absolute(prop(n, 'src') ?? '', cx) })
    case 'a':
      return link(n, cx)
    default:
      return inline(n.children, cx)
  }
}

/** A link: a cross-reference to a numbered part, a link out, or (within the page) its text. */
function link(a: Element, cx: Context): string {
  const href = prop(a, 'href') ?? ''
  const target = /^#((fig|tbl|eq|sec)-.+)$/.exec(href)
  if (target) return el('xref', { 'ref-type': XREF_TYPES[target[2]!], rid: xmlId(target[1]!) }, inline(a.children, cx))
  if (href.startsWith('#')) return inline(a.children, cx)
  return el('ext-link', { 'ext-link-type': 'uri', 'xlink:href': absolute(href, cx) }, inline(a.children, cx))
}

export const absolute = (href: string, cx: Context) => {
  try {
    return new URL(href, `${cx.baseUrl}/`).href
  } catch {
    return href
  }
}
