/**
 * citeproc's HTML as hast nodes that may stand inside a sentence: parsed (hast-util-from-html),
 * sanitised to emphasis, small caps, sub- and superscripts and http(s) links, and with the
 * cited work's DOI or URL made a link where the style wrote it as text. Loaded with citeproc,
 * only for an article that cites.
 */
import type { ElementContent, Root } from 'hast'
import { el, text } from './hast-nodes.ts'
import { fromHtml } from 'hast-util-from-html'
import { sanitize } from 'hast-util-sanitize'
import type { CslItem } from './bibliography.ts'

/** What citeproc may write: emphasis, small caps, sub- and superscripts, links to the web. */
const CSL_HTML = {
  tagNames: ['i', 'b', 'em', 'strong', 'sup', 'sub', 'span', 'a', 'div'],
  attributes: { a: ['href'], div: ['className'] },
  protocols: { href: ['http', 'https'] },
  strip: ['script', 'style'],
}

/**
 * citeproc's HTML as sanitised phrasing nodes: a `div.csl-entry` unwrapped, and the `div`s of
 * numeric styles (`csl-left-margin`, `csl-right-inline`) as `span`s. When `item` is given, its
 * DOI and URL are made links where the style wrote them as plain text.
 */
export function cslNodes(html: string, item?: CslItem): ElementContent[] {
  const tree = sanitize(fromHtml(html, { fragment: true }), CSL_HTML) as Root
  let nodes = tree.children as ElementContent[]
  const only = nodes.length === 1 ? nodes[0] : undefined
  if (only?.type === 'element' && only.tagName === 'div') nodes = only.children
  const phrasing = (list: ElementContent[]): ElementContent[] =>
    list
      .filter((n) => n.type !== 'text' || n.value.trim() || list.length === 1)
      .flatMap((n): ElementContent[] => {
        if (n.type !== 'element') return [n]
        n.children = phrasing(n.children)
        if (n.tagName !== 'div') return [n]
        n.tagName = 'span'
        // A numeric style's number, then a space before the reference it numbers.
        return String(n.properties.className).includes('csl-left-margin') ? [n, text(' ')] : [n]
      })
  nodes = phrasing(nodes)
  return item ? linkIdentifiers(nodes, item) : nodes
}

/** Wraps the first plain-text occurrence of the item's DOI (else URL) in a link to it. */
function linkIdentifiers(nodes: ElementContent[], item: CslItem): ElementContent[] {
  const target = item.DOI
    ? { text: item.DOI, href: `https://doi.org/${item.DOI}` }
    : item.URL
      ? { text: item.URL, href: item.URL }
      : undefined
  if (!target || !/^https?:\/\//.test(target.href)) return nodes
  let done = false
  const visit = (list: ElementContent[]): ElementContent[] =>
    list.flatMap((n): ElementContent[] => {
      if (done) return [n]
      if (n.type === 'element') {
        if (n.tagName === 'a') {
          if (String(n.properties.href).includes(target.text)) done = true
          return [n]
        }
        n.children = visit(n.children)
        return [n]
      }
      if (n.type !== 'text') return [n]
      const at = n.value.toLowerCase().indexOf(target.text.toLowerCase())
      if (at < 0) return [n]
      done = true
      const end = at + target.text.length
      return [
        text(n.value.slice(0, at)),
        el('a', { href: target.href }, [text(n.value.slice(at, end))]) as ElementContent,
        text(n.value.slice(end)),
      ]
    })
  return visit(nodes)
}
