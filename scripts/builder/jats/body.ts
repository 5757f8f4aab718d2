/**
 * An article's rendered HTML as the body of a JATS article
 * (https://jats.nlm.nih.gov/archiving/tag-library/1.4/): headings open nested `sec`s, figures
 * become `fig`, captioned tables `table-wrap`, display equations `disp-formula` (their TeX in
 * `tex-math`, from KaTeX's annotation), lists `list`. The References section is left out: the
 * back's `ref-list` holds it. What JATS has no element for keeps its text.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { fromParse5 } from 'hast-util-from-parse5'
import { parseFragment } from 'parse5'
import { type Context, absolute, has, idOf, inline, isElement, prop, texOf, textOf } from './inline.ts'
import { el, escapeXml, textEl } from './xml.ts'
/** A caption's number and text: "Figure 1: Text" as its label and its paragraph. */
function caption(e: Element | undefined, cx: Context): { label: string; caption: string } {
  if (!e) return { label: '', caption: '' }
  const text = textOf(e)
  const m = /^((?:Figure|Table) \d+):\s*/.exec(text)
  if (!m) return { label: '', caption: el('caption', {}, el('p', {}, inline(e.children, cx))) }
  // The label is the first text's prefix; the rest of the caption keeps its markup.
  const [first, ...rest] = e.children
  const head = first?.type === 'text' ? [{ ...first, value: first.value.slice(m[0].length) }] : []
  return {
    label: textEl('label', m[1]!),
    caption: el('caption', {}, el('p', {}, inline([...head, ...rest] as ElementContent[], cx))),
  }
}

function figure(f: Element, cx: Context): string {
  const img = f.children.find((c): c is Element => isElement(c) && c.tagName === 'img')
  const cap = caption(
    f.children.find((c): c is Element => isElement(c) && c.tagName === 'figcaption'),
    cx,
  )
  const graphic = img ? el('graphic', { 'xlink:href': absolute(prop(img, 'src') ?? '', cx) }) : ''
  const alt = img && prop(img, 'alt') ? textEl('alt-text', prop(img, 'alt')!) : ''
  return el('fig', { id: idOf(f) }, cap.label, cap.caption, alt, graphic)
}

function table(t: Element, cx: Context): string {
  const cap = caption(
    t.children.find((c): c is Element => isElement(c) && c.tagName === 'caption'),
    cx,
  )
  const cells = (row: Element) =>
    row.children
      .filter(isElement)
      .map((c) => el(c.tagName === 'th' ? 'th' : 'td', { align: alignOf(c) }, inline(c.children, cx)))
      .join('')
  const rows = (group: Element) =>
    group.children
      .filter((c): c is Element => isElement(c) && c.tagName === 'tr')
      .map((r) => el('tr', {}, cells(r)))
      .join('')
  const groups = t.children
    .filter((c): c is Element => isElement(c) && ['thead', 'tbody', 'tfoot'].includes(c.tagName))
    .map((g) => el(g.tagName, {}, rows(g)))
  const direct = rows(t)
  const body = direct ? [el('tbody', {}, direct)] : []
  return el('table-wrap', { id: idOf(t) }, cap.label, cap.caption, el('table', {}, ...groups, ...body))
}

const alignOf = (c: Element) => {
  const style = prop(c, 'style') ?? ''
  const a = /text-align:\s*(left|right|center)/.exec(style)?.[1] ?? prop(c, 'align')
  return a === 'left' || a === 'right' || a === 'center' ? a : has(c, 'num') ? 'right' : undefined
}

function equation(e: Element): string {
  const tex = texOf(e)
  const number = /\\tag\*?\{([^}]*)\}/.exec(textOf(e))?.[1]
  const label = number ? textEl('label', `(${number})`) : ''
  return el('disp-formula', { id: idOf(e) }, label, textEl('tex-math', tex))
}

function list(l: Element, cx: Context): string {
  const items = l.children
    .filter((c): c is Element => isElement(c) && c.tagName === 'li')
    .map((li) => el('list-item', {}, blocks(li.children, cx) || el('p', {}, '')))
  return el('list', { 'list-type': l.tagName === 'ol' ? 'order' : 'bullet' }, ...items)
}

const BLOCK = new Set([
  'p',
  'ul',
  'ol',
  'pre',
  'blockquote',
  'figure',
  'table',
  'div',
  'section',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'details',
  'aside',
])

/** Block content (headings aside, which body() nests): each block's JATS, inline runs as paragraphs. */
function blocks(nodes: readonly ElementContent[], cx: Context): string {
  const out: string[] = []
  let run: ElementContent[] = []
  const flush = () => {
    if (run.some((n) => textOf(n).trim() !== '' || (isElement(n) && n.tagName === 'img')))
      out.push(el('p', {}, inline(run, cx).trim()))
    run = []
  }
  for (const n of nodes) {
    if (isElement(n) && (BLOCK.has(n.tagName) || has(n, 'katex-display'))) {
      flush()
      out.push(block(n, cx))
    } else run.push(n)
  }
  flush()
  return out.join('')
}

function block(n: Element, cx: Context): string {
  if (has(n, 'equation') || has(n, 'katex-display')) return equation(n)
  switch (n.tagName) {
    case 'p':
      return el('p', {}, inline(n.children, cx))
    case 'ul':
    case 'ol':
      return list(n, cx)
    case 'pre':
      return el('preformat', {}, escapeXml(textOf(n)))
    case 'blockquote':
      return el('disp-quote', {}, blocks(n.children, cx) || el('p', {}, ''))
    case 'figure':
      return figure(n, cx)
    case 'table':
      return table(n, cx)
    case 'hr':
      return ''
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      // A heading inside a block (a list, a quote) cannot open a section there: its text stays, bold.
      return el('p', {}, el('bold', {}, inline(n.children, cx)))
    default:
      return blocks(n.children, cx)
  }
}

/** A section being filled: its heading level and its JATS so far. */
interface Open {
  level: number
  parts: string[]
}

/** The References list's entries as the page shows them, by citation key (`ref-<key>`). */
function entriesOf(section: Element, into: Map<string, string>) {
  for (const c of section.children)
    if (isElement(c) && has(c, 'csl-entry')) {
      const id = prop(c, 'id')
      if (id?.startsWith('ref-')) into.set(id.slice(4), textOf(c).replace(/\s+/g, ' ').trim())
    }
}

/**
 * The page's HTML as a hast tree, as hast-util-from-html parses a fragment but without source
 * positions, which nothing here reads: parse5's location tracking was a third of the parse and
 * most of its garbage, the main thread's largest cost for a citing article (its popovers repeat
 * each reference).
 */
const parsed = (html: string) => fromParse5(parseFragment(html, { scriptingEnabled: false })) as Root

/**
 * The `<body>` of the article: headings (h2 to h6) nest sections by level, their numbers as
 * labels; the References section (the back's) left out, its rendered entries returned.
 */
export function jatsBody(html: string, baseUrl: string): { body: string; entries: Map<string, string> } {
  const entries = new Map<string, string>()
  const tree = parsed(html)
  const cx: Context = { baseUrl }
  const top: Open = { level: 1, parts: [] }
  const stack: Open[] = [top]
  const close = () => {
    const done = stack.pop()!
    stack.at(-1)!.parts.push(`${done.parts.join('')}</sec>`)
  }
  const visit = (nodes: readonly RootContent[]) => {
    for (const n of nodes) {
      if (!isElement(n)) {
        if (n.type === 'text' && n.value.trim()) stack.at(-1)!.parts.push(el('p', {}, escapeXml(n.value.trim())))
        continue
      }
      if (n.tagName === 'section' && (has(n, 'references') || prop(n, 'id') === 'refs')) {
        entriesOf(n, entries)
        continue
      }
      const level = /^h([2-6])$/.exec(n.tagName)?.[1]
      if (level) {
        while (stack.length > 1 && stack.at(-1)!.level >= Number(level)) close()
        const number = n.children.find((c) => isElement(c) && has(c, 'header-section-number'))
        const title = n.children.filter((c) => c !== number)
        const label = number ? textEl('label', textOf(number).trim()) : ''
        const open = `<sec${idOf(n) ? ` id="${idOf(n)}"` : ''}>`
        stack.push({ level: Number(level), parts: [open, label, el('title', {}, inline(title, cx).trim())] })
      } else if (n.tagName === 'section' || (n.tagName === 'div' && !has(n, 'equation'))) visit(n.children)
      else stack.at(-1)!.parts.push(blocks([n], cx))
    }
  }
  visit(tree.children)
  while (stack.length > 1) close()
  return { body: el('body', {}, ...top.parts), entries }
}
