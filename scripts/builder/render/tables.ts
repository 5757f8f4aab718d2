/**
 * Numeric table columns, marked `num` on every cell so the site CSS right-aligns them (figures
 * line up by their last digit). A column is numeric when each body cell holds a number, with an
 * optional sign, unit or percent, or a dash for "none", and at least one holds a number.
 */
import type { Element, Root } from 'hast'

const NUMBER = /^[-−+±~≈<>≤≥]?\s?\d[\d\s.,\u00a0\u202f]*(?:\s?(?:%|‰|[a-zA-Zµμ×]{1,3}))?$/u
const NONE = /^[—–-]?$/

function cells(row: Element): Element[] {
  return row.children.filter((c): c is Element => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'))
}

function rows(section: Element | undefined): Element[] {
  return (section?.children ?? []).filter((c): c is Element => c.type === 'element' && c.tagName === 'tr')
}

function text(node: Element): string {
  let s = ''
  for (const child of node.children)
    if (child.type === 'text') s += child.value
    else if (child.type === 'element') s += text(child)
  return s.trim()
}

function child(table: Element, tag: string): Element | undefined {
  return table.children.find((c): c is Element => c.type === 'element' && c.tagName === tag)
}

function markTable(table: Element): void {
  const head = rows(child(table, 'thead'))
  const body = rows(child(table, 'tbody'))
  if (body.length === 0) return
  const width = Math.max(...body.map((r) => cells(r).length))
  for (let col = 0; col < width; col++) {
    const values = body.map((r) =>
      text(cells(r)[col] ?? { type: 'element', tagName: 'td', properties: {}, children: [] }),
    )
    if (!values.every((v) => NUMBER.test(v) || NONE.test(v)) || !values.some((v) => NUMBER.test(v))) continue
    for (const row of [...head, ...body]) {
      const cell = cells(row)[col]
      if (!cell) continue
      const c = cell.properties.className
      cell.properties.className = [...(Array.isArray(c) ? c.map(String) : []), 'num']
    }
  }
}

/** Marks the numeric columns of every table in the tree, in place. */
export function markNumericColumns(node: Root | Element): void {
  for (const c of node.children) {
    if (c.type !== 'element') continue
    if (c.tagName === 'table') markTable(c)
    else markNumericColumns(c)
  }
}
