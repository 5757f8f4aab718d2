/** XML text, for the build's feeds, JATS and Crossref files and the service's OAI-PMH answers alike. */

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
/**
 * Characters XML 1.0 does not allow anywhere, not even escaped: C0 controls but tab and newlines,
 * lone surrogates, U+FFFE/F.
 */
const NOT_XML = new RegExp(
  [
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]',
    '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])',
    '(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]',
  ].join('|'),
  'g',
)

/** Text for an XML element or a quoted attribute, without the characters XML cannot hold. */
export const escapeXml = (s: string) => s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ENTITY[c]!)

/**
 * A quoted attribute value: escaped, with line breaks and tabs as character references, since a
 * parser turns literal ones into spaces (XML 1.0 §3.3.3, https://www.w3.org/TR/xml/#AVNormalize).
 */
export const escapeAttribute = (s: string) => escapeXml(s).replace(/[\n\r\t]/g, (c) => `&#${c.charCodeAt(0)};`)

/** An element's attributes, ` name="value"` each, those undefined left out. */
export function xmlAttributes(attributes: Record<string, string | number | undefined>): string {
  let out = ''
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined) out += ` ${name}="${escapeAttribute(String(value))}"`
  return out
}
