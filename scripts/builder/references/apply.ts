/**
 * Fills the scan's tokens into the sanitised HTML tree: each citation becomes its CSL text as a
 * button that shows the full reference in a popover (the HTML Popover API: opened by click, tap,
 * Enter or Space, closed by Escape or a click elsewhere, no script), with a link to its entry in
 * the References list appended to the article; each cross-reference a link reading "Figure 1";
 * labelled images become `<figure>`s with a numbered `<figcaption>`, labelled tables get a
 * numbered `<caption>`, labelled equations an id, and headings their numbers.
 * Everything added is built here, or is citeproc's HTML parsed and sanitised (csl-html.ts).
 */
import type { Element, Root } from 'hast'
import { el, type Node, text } from './hast-nodes.ts'
import type { CslItem } from './bibliography.ts'
import type { Rendered } from './citeproc.ts'
import { LABEL_KINDS, TOKEN, type Cluster, type Label, type LineProblem, type Scanned } from './syntax.ts'

export const referenceId = (key: string) => `ref-${key}`

export interface Applied {
  problems: LineProblem[]
  /** Each cluster's text as a reader sees it, by index: for the markdown twin. */
  clusterText: Map<number, string>
}

export function applyReferences(tree: Root, scanned: Scanned, rendered: Rendered | undefined): Applied {
  const labels = [...scanned.labels.values()]
  const applied: Applied = { problems: [], clusterText: new Map() }
  const entries = new Map((rendered?.entries ?? []).map((e) => [e.item.id, e]))
  const fill = (parent: Root | Element) => {
    const out: Node[] = []
    for (const node of parent.children) {
      if (node.type === 'text' && node.value.includes('\u{F0000}')) out.push(...expand(node.value))
      else {
        if (node.type === 'element') fill(node)
        out.push(node)
      }
    }
    parent.children = out as typeof parent.children
    if (parent.type === 'element') shape(parent, labels, applied)
  }
  const expand = (value: string): Node[] => {
    const nodes: Node[] = []
    let at = 0
    for (const m of value.matchAll(TOKEN)) {
      if (m.index > at) nodes.push(text(value.slice(at, m.index)))
      at = m.index + m[0].length
      const n = Number(m[2])
      if (m[1] === 'c') {
        const c = scanned.clusters[n]!
        const node = c.kind === 'ref' ? crossReference(c, scanned.labels) : citation(n, c, rendered!, entries)
        applied.clusterText.set(n, textOf(node))
        nodes.push(node)
      } else if (m[1] === 'h') nodes.push(el('span', { dataHeading: scanned.headings[n]! }, []))
      else nodes.push(el('span', { dataLabel: labels[n]!.id }, []))
    }
    if (at < value.length) nodes.push(text(value.slice(at)))
    return nodes
  }
  fill(tree)
  placeCaptions(tree, scanned, applied.problems)
  if (rendered?.entries.length) tree.children.push(text('\n'), referenceList(rendered))
  return applied
}

/** The markers where tokens stood in `parent`: removed, and what they label shaped around them. */
function shape(parent: Element, labels: readonly Label[], applied: Applied): void {
  const markers = parent.children.filter(
    (c): c is Element => c.type === 'element' && (c.properties.dataLabel ?? c.properties.dataHeading) !== undefined,
  )
  if (markers.length === 0) return
  parent.children = parent.children.filter((c) => !markers.includes(c as Element))
  for (const marker of markers) {
    const heading = marker.properties.dataHeading
    if (heading !== undefined) {
      parent.children.unshift(el('span', { className: ['header-section-number'] }, [text(String(heading))]), text(' '))
      continue
    }
    const label = labels.find((l) => l.id === marker.properties.dataLabel)!
    if (label.kind === 'sec') parent.properties.id = label.id
    else if (label.kind === 'eq') parent.properties.dataEquation = label.id
    else if (label.kind === 'tbl') {
      parent.properties.dataTableCaption = label.id
      parent.children.unshift(text(`${LABEL_KINDS.tbl} ${label.number}: `))
    } else {
      const img = parent.children.find((c): c is Element => c.type === 'element' && c.tagName === 'img')
      if (!img) {
        applied.problems.push({
          line: label.line,
          message: `{#${label.id}} follows no image`,
          fix: 'write ![Caption](src){#fig-…}',
        })
        continue
      }
      const caption = el('figcaption', {}, [text(`${LABEL_KINDS.fig} ${label.number}: ${label.caption ?? ''}`)])
      Object.assign(parent, el('figure', { id: label.id, className: ['figure'] }, [img, caption]))
    }
  }
}

/**
 * Moves each table caption paragraph into the table beside it (before or after it), and puts
 * each labelled display equation in a `div` with its id.
 */
function placeCaptions(tree: Root | Element, scanned: Scanned, problems: LineProblem[]): void {
  const children = tree.children as Node[]
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!
    if (node.type !== 'element') continue
    const code = node.tagName === 'pre' ? node.children[0] : undefined
    if (code?.type === 'element' && code.properties.dataEquation !== undefined) {
      const id = String(code.properties.dataEquation)
      delete code.properties.dataEquation
      children[i] = el('div', { id, className: ['equation'] }, [node])
      continue
    }
    if (node.tagName !== 'p' || node.properties.dataTableCaption === undefined) {
      placeCaptions(node, scanned, problems)
      continue
    }
    const label = scanned.labels.get(String(node.properties.dataTableCaption))!
    const near = (step: number) => {
      for (let j = i + step; j >= 0 && j < children.length; j += step) {
        const c = children[j]!
        if (c.type === 'element') return c.tagName === 'table' ? c : undefined
        if (c.type === 'text' && c.value.trim()) return undefined
      }
    }
    const table = near(-1) ?? near(1)
    if (!table) {
      problems.push({
        line: label.line,
        message: `the caption {#${label.id}} is beside no table`,
        fix: 'put the ": Caption {#tbl-…}" line right after the table, with one blank line between',
      })
      continue
    }
    table.properties.id = label.id
    table.children.unshift(el('caption', {}, node.children))
    delete node.properties.dataTableCaption
    children.splice(i, 1)
    i--
  }
}

function crossReference(c: Cluster, labels: ReadonlyMap<string, Label>): Element {
  const parts: Node[] = []
  c.items.forEach((item, i) => {
    const label = labels.get(item.key)
    if (i > 0) parts.push(text(', '))
    if (item.prefix) parts.push(text(item.prefix))
    if (!label) {
      parts.push(text(`@${item.key}`))
      return
    }
    const number = item.suppressAuthor && label.kind === 'eq' ? `(${label.number})` : label.number
    const words = item.suppressAuthor ? number : `${LABEL_KINDS[label.kind]} ${number}`
    parts.push(el('a', { href: `#${label.id}`, className: ['crossref'] }, [text(words)]))
    if (item.suffix) parts.push(text(item.suffix))
  })
  return el('span', { className: ['crossref-group'] }, parts)
}

function citation(
  n: number,
  c: Cluster,
  rendered: Rendered,
  entries: ReadonlyMap<string, { item: CslItem; html: string }>,
): Element {
  const html = rendered.clusters.get(n)
  const id = `cite-${n + 1}`
  // In the order of the References list, as the style ordered the cluster.
  const order = [...entries.keys()]
  const keys = [...new Set(c.items.map((i) => i.key))].sort((a, b) => order.indexOf(a) - order.indexOf(b))
  const card = keys.map((key) => {
    const entry = entries.get(key)
    return el('span', { className: ['citation-entry'] }, [
      ...(entry ? rendered.nodes(entry.html, entry.item) : [text(key)]),
      text(' '),
      el('a', { href: `#${referenceId(key)}`, className: ['citation-jump'] }, [text('In References ↓')]),
    ])
  })
  return el('span', { className: ['citation'], dataCites: keys.join(' ') }, [
    el(
      'button',
      { type: 'button', className: ['citation-ref'], popovertarget: id },
      html ? rendered.nodes(html) : [text(c.source)],
    ),
    // The search index has each reference once, from the References list.
    el('span', { id, className: ['citation-card'], popover: 'auto', role: 'note', dataPagefindIgnore: '' }, card),
  ])
}

function referenceList(rendered: Rendered): Element {
  const { entries } = rendered
  return el('section', { id: 'refs', className: ['references'], role: 'doc-bibliography' }, [
    el('h2', {}, [text('References')]),
    text('\n'),
    ...entries.flatMap((e) => [
      el('div', { id: referenceId(e.item.id), className: ['csl-entry'] }, rendered.nodes(e.html, e.item)),
      text('\n'),
    ]),
  ])
}

export function textOf(node: Node | Root): string {
  if (node.type === 'text') return node.value
  if (node.type !== 'element' && node.type !== 'root') return ''
  // A popover's text is the reference list's, said once at the end.
  if (node.type === 'element' && node.properties.popover !== undefined) return ''
  return node.children.map((c) => textOf(c as Node)).join('')
}
