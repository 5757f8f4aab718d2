/** Writing XML elements as text: names are the writer's own, attribute values and text escaped. */
import { escapeXml, xmlAttributes } from '../../../model/xml-text.ts'

export { escapeXml }

/** Attributes of an element, those undefined left out. */
export type Attributes = Record<string, string | number | undefined>

/** An element whose content is already XML: the content of each child, joined. */
export const el = (name: string, attrs: Attributes, ...content: string[]) =>
  `<${name}${xmlAttributes(attrs)}>${content.join('')}</${name}>`

/** An element of text, escaped. */
export const textEl = (name: string, text: string | number, attrs: Attributes = {}) =>
  el(name, attrs, escapeXml(String(text)))

/** An element only when there is text for it. */
export const optionalText = (name: string, text: string | number | undefined, attrs: Attributes = {}) =>
  text === undefined || text === '' ? '' : textEl(name, text, attrs)
