/** hast nodes built by hand, for what the references add to an article's tree. */
import type { Element, ElementContent, RootContent, Text } from 'hast'

export type Node = RootContent | ElementContent

export const el = (tagName: string, properties: Element['properties'], children: Node[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children: children as ElementContent[],
})

export const text = (value: string): Text => ({ type: 'text', value })
