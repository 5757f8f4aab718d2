/**
 * A formula as plain text, for the search index and excerpts: readers see rendered math, so
 * the text holds what they read ("O(n log n)", "1/k^2"), never its TeX source ("\frac{1}{k^2}").
 * Made from KaTeX's MathML (https://www.w3.org/TR/mathml-core/): tokens in order, fractions as
 * a/b, scripts as ^ and _, the TeX annotation and invisible operators left out.
 */
import katex from 'katex'
import { BoundedCache } from '../bounded-cache.ts'

interface Node {
  tag: string
  children: Array<Node | string>
}

const cache = new BoundedCache<string>(5_000)
// U+2061-U+2064: function application, invisible times, separator, plus.
const INVISIBLE = /[\u2061-\u2064]/g
const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }

export function plainMath(tex: string): string {
  let plain = cache.get(tex)
  if (plain === undefined) {
    try {
      // A formula KaTeX rejects shows as its source in red: the text leaves it out.
      const mathml = katex.renderToString(tex, { output: 'mathml', throwOnError: true, strict: 'ignore' })
      // A command KaTeX will not run (\href without trust) shows as its name: left out too.
      plain = textOf(parse(mathml))
        .replace(/\\[a-zA-Z]+/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    } catch {
      plain = ''
    }
    cache.set(tex, plain)
  }
  return plain
}

/** KaTeX's MathML as a tree: elements and their text. */
function parse(markup: string): Node {
  const root: Node = { tag: '', children: [] }
  const stack = [root]
  for (const [, close, tag, selfClosing, text] of markup.matchAll(/<(\/?)([\w:-]+)[^>]*?(\/?)>|([^<]+)/g)) {
    const top = stack[stack.length - 1]!
    if (text !== undefined) top.children.push(text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITY[e]!))
    else if (close) stack.length > 1 && stack.pop()
    else {
      const node: Node = { tag: tag!, children: [] }
      top.children.push(node)
      if (!selfClosing) stack.push(node)
    }
  }
  return root
}

function textOf(node: Node | string): string {
  if (typeof node === 'string') return node.replace(INVISIBLE, '')
  const parts = node.children.map(textOf)
  switch (node.tag) {
    case 'mover':
    case 'munder':
      return parts[0] ?? ''
    case 'munderover':
      return `${parts[0]}_${group(parts[1])}^${group(parts[2])}`
    case 'annotation':
      return ''
    case 'mfrac':
      return `${group(parts[0])}/${group(parts[1])}`
    case 'msup':
      return `${parts[0]}^${group(parts[1])}`
    case 'msub':
      return `${parts[0]}_${group(parts[1])}`
    case 'msubsup':
      return `${parts[0]}_${group(parts[1])}^${group(parts[2])}`
    case 'msqrt':
      return `√${group(join(parts))}`
    default:
      return join(parts)
  }
}

/** Tokens side by side; a space only between two words or numbers ("n log n", not "( n"). */
function join(parts: string[]): string {
  let out = ''
  for (const part of parts) {
    if (/[\p{L}\p{N}]$/u.test(out) && /^[\p{L}\p{N}]/u.test(part)) out += ' '
    out += part
  }
  return out
}

/** Parenthesised when more than one token, so that a/b stays readable. */
function group(s = ''): string {
  return /^[\p{L}\p{N}.]+$/u.test(s) || s.length <= 1 ? s : `(${s})`
}
