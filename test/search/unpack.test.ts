import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { unpack } from '../../search/browser/search-unpack.js'
import { utf8Length } from '../../search/browser/search-rank.js'

describe('unpack, as the search page reads the index files', () => {
  const text = new TextEncoder().encode('pagefind_dcd'.repeat(20_000))

  it('unpacks gzip into an array the size of the content', async () => {
    const out = await unpack(new Uint8Array(gzipSync(text)))
    expect(out.length).toBe(text.length)
    expect(Buffer.from(out).equals(Buffer.from(text))).toBe(true)
  })

  it('fails on a trailer that gives another size', async () => {
    const packed = new Uint8Array(gzipSync(text))
    packed[packed.length - 4]! ^= 1
    await expect(unpack(packed)).rejects.toThrow()
  })

  it('gives bytes a server already unpacked as they are, and fails on gzip cut short', async () => {
    expect(await unpack(text)).toBe(text)
    const packed = gzipSync(text)
    await expect(unpack(new Uint8Array(packed.subarray(0, packed.length >> 1)))).rejects.toThrow()
  })
})

describe('utf8Length', () => {
  it('counts the bytes TextEncoder writes, surrogate pairs and lone surrogates included', () => {
    for (const s of ['', 'eviction', 'élève', 'ŋ€', '日本語', '😀a😀', 'a\ud800b', '\udc00', 'x\ud83d'])
      expect(utf8Length(s), s).toBe(new TextEncoder().encode(s).length)
  })
})
