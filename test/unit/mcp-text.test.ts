import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonStringOf } from '../../auth-service/mcp/direct.ts'
import { jsonTextOf, stringTextOf } from '../../post-index/json-text.ts'

/** The bytes the MCP SDK would write for a tool's text content: the document as a JSON string. */
const asSdkWrites = (json: Buffer) => Buffer.from(JSON.stringify(json.toString()))

describe('a JSON document as the text content of a tool answer', () => {
  it('is the same bytes as escaping the decoded UTF-8, for any JSON document', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        // Any text, as JSON writes it: quotes, backslashes, control characters, emoji, lone surrogates.
        const json = Buffer.from(JSON.stringify({ value, text }))
        expect(jsonStringOf(json).equals(asSdkWrites(json))).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps multi-byte characters, escapes and line separators', () => {
    const json = Buffer.from(
      JSON.stringify({
        author: 'Léa Fontaine',
        math: '∑ x²',
        emoji: '🔬',
        quote: 'say "hi"\\n',
        sep: '\u2028',
        nl: 'a\nb',
      }),
    )
    expect(jsonStringOf(json).toString()).toBe(JSON.stringify(json.toString()))
    expect(JSON.parse(jsonStringOf(json).toString())).toBe(json.toString())
  })
})

describe('JSON and strings as the content of a JSON string (the build’s escaped bodies)', () => {
  it('is JSON.stringify’s escaping without the quotes, for any JSON document and any string', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const json = Buffer.from(JSON.stringify({ value, text }))
        expect(jsonTextOf(json).toString()).toBe(JSON.stringify(json.toString()).slice(1, -1))
        expect(stringTextOf(text).equals(Buffer.from(JSON.stringify(text).slice(1, -1)))).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})
