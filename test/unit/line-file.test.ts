import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LineChunks, writeBytesSync, writeLinesSync } from '../../post-index/line-file.ts'
import { tempDir } from '../support/temp.ts'

const text = (chunks: LineChunks) => Buffer.concat(chunks.buffers()).toString('utf8')

describe('LineChunks', () => {
  it('writes each line as its parts in order, strings as UTF-8, each ended by a newline', () => {
    const lines = new LineChunks()
    lines.add('{"title":"Zoë — “naïve”"')
    lines.add(Buffer.from(',"n":1}'))
    lines.end()
    lines.addHeld(Buffer.from('{"kept":true}'))
    lines.end()
    expect(text(lines)).toBe('{"title":"Zoë — “naïve”","n":1}\n{"kept":true}\n')
    expect(lines.count).toBe(2)
  })

  it('keeps every byte across chunks, and a part larger than a chunk whole', () => {
    const lines = new LineChunks()
    const expected: string[] = []
    for (let i = 0; i < 3000; i++) {
      // 2-byte and 3-byte characters put parts across chunk ends by byte, not by character.
      const line = `${i}:${'é'.repeat(i % 97)}${'€'.repeat(i % 13)}`
      lines.add(line)
      lines.end()
      expected.push(line)
    }
    const large = 'x'.repeat(3 << 20)
    lines.add(large)
    lines.end()
    expected.push(large)
    expect(text(lines)).toBe(`${expected.join('\n')}\n`)
    expect(lines.buffers().length).toBeGreaterThan(2)
  })

  it('holds none of the shared allocation pool, where a line would keep whatever was made beside it', () => {
    const lines = new LineChunks()
    for (let i = 0; i < 100; i++) {
      lines.add(`{"slug":"a-${i}"}`)
      lines.end()
    }
    // A short Buffer made now is a view of the pool's current slab.
    const pooled = Buffer.from('beside').buffer
    for (const part of lines.buffers()) expect(part.buffer).not.toBe(pooled)
  })

  it('is empty until a line is added', () => {
    const lines = new LineChunks()
    expect(lines.buffers()).toEqual([])
    expect(lines.count).toBe(0)
  })
})

describe('writeBytesSync and writeLinesSync', () => {
  it('write the buffers one after another, and lines each with its newline', () => {
    const dir = tempDir('line-file')
    writeBytesSync(join(dir, 'a'), [Buffer.from('ab'), Buffer.from(''), Buffer.from('c\n')])
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('abc\n')
    writeLinesSync(join(dir, 'b'), [Buffer.from('one'), Buffer.from('two')])
    expect(readFileSync(join(dir, 'b'), 'utf8')).toBe('one\ntwo\n')
  })
})
