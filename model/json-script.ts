/**
 * JSON that cannot end its script element or open a comment inside it (HTML Standard §4.12.1.3,
 * "Restrictions for contents of script elements"): `<`, `>` and `&` as JSON escapes, and the two
 * line terminators JavaScript once refused. For the pages' JSON-LD data blocks.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
