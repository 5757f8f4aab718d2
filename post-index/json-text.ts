/**
 * JSON bytes written as the content of a JSON string: what `JSON.stringify(text)` makes of the
 * text they decode to, without its two quotes. An MCP tool answer carries its JSON document twice,
 * the second time as such a string (its text content), so the index keeps each markdown literal in
 * this form too (index-file.ts) and the answer is laid out from bytes rather than escaped per call.
 */

/**
 * The UTF-8 bytes of JSON as the content of a JSON string, computed byte for byte as latin1: JSON
 * holds no raw control character, and JSON.stringify leaves every character above 0x7f as it is
 * (ECMA-262, QuoteJSONString: only `"`, `\`, controls and lone surrogates are escaped), so the
 * UTF-8 sequences pass through intact; decoding and re-encoding UTF-8 would cost more than the
 * escaping itself.
 */
export function jsonTextOf(json: Buffer): Buffer {
  const quoted = JSON.stringify(json.toString('latin1'))
  return Buffer.from(quoted.slice(1, -1), 'latin1')
}

/** A string as the content of a JSON string, in UTF-8: JSON.stringify's escaping, without the quotes. */
export function stringTextOf(text: string): Buffer {
  return Buffer.from(JSON.stringify(text).slice(1, -1))
}
