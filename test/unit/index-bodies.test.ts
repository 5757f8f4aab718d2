/**
 * A loaded index reads each body from the build's bodies file when its detail is asked for, and
 * holds none: these check that it answers as the in-memory index does, that it still answers
 * after a later build prunes its folder, that its memory does not grow with the bodies, and
 * that it lets go of the file once the index is gone.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { INDEX_FILES } from '../../post-index/index-file.ts'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { writeIndexFile } from '../../post-index/index-file-writer.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import type { IndexEntry } from '../../model/article.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'https://research.example.org'
const entry = (i: number, markdown = `# Post ${i}\n\n"quoted" \\ é 😀 \u2028 $x^2$\n`): IndexEntry => ({
  slug: `post-${i}`,
  title: `Title ${i}`,
  description: 'D',
  date: `2025-01-${String(1 + (i % 28)).padStart(2, '0')}`,
  lastModified: '2025-02-01T00:00:00.000Z',
  author: 'A',
  tags: ['x'],
  readingMinutes: 3,
  markdown,
})

const buildDir = () => tempDir('bodies')

describe('bodies read from the build', () => {
  it('answers every detail with the bytes and validators of the in-memory index', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(i, i % 7 === 0 ? '' : undefined))
    const dir = buildDir()
    await writeIndexFile(dir, entries)
    const loaded = loadIndexFileSync(dir, BASE)
    const memory = createPostIndex(entries, BASE)
    for (const { slug } of entries) {
      const mine = loaded.detail(slug)!
      expect(mine, slug).toEqual(memory.detail(slug))
      // The second read answers the same (the hot details keep it, kept-answers.ts).
      expect(loaded.detail(slug)).toEqual(mine)
    }
  })

  it('still answers after a later build prunes its folder', async () => {
    const entries = [entry(1), entry(2, 'x'.repeat(200_000))]
    const dir = buildDir()
    await writeIndexFile(dir, entries)
    const index = loadIndexFileSync(dir, BASE)
    rmSync(dir, { recursive: true })
    expect(existsSync(dir)).toBe(false)
    const memory = createPostIndex(entries, BASE)
    for (const { slug } of entries) expect(index.detail(slug)!.body.equals(memory.detail(slug)!.body)).toBe(true)
  })

  it('holds no body in memory', async () => {
    const count = 300
    const bodyBytes = 100_000
    const dir = buildDir()
    await writeIndexFile(
      dir,
      Array.from({ length: count }, (_, i) => entry(i, `${i} ${'b'.repeat(bodyBytes)}`)),
    )
    const before = process.memoryUsage().arrayBuffers
    const index = loadIndexFileSync(dir, BASE)
    const grown = process.memoryUsage().arrayBuffers - before
    // The bodies are 30 MB; the index's own buffers are a few hundred bytes a post.
    expect(grown).toBeLessThan((count * bodyBytes) / 20)
    expect(JSON.parse(index.detail('post-7')!.body.toString()).markdown).toBe(`7 ${'b'.repeat(bodyBytes)}`)
  })

  it('refuses, at load, bodies cut short or a body that is not a JSON string', async () => {
    const cut = buildDir()
    await writeIndexFile(cut, [entry(1), entry(2)])
    const bodies = join(cut, INDEX_FILES.bodies)
    writeFileSync(bodies, readFileSync(bodies).subarray(0, -1))
    expect(() => loadIndexFileSync(cut, BASE)).toThrow(`${bodies}: `)
    expect(() => loadIndexFileSync(cut, BASE)).toThrow(/\d+ bytes where .* says \d+; rebuild/)

    // The same size, but the last body's closing quote is gone, or its escaped form's (written
    // after it): only their ends say so.
    for (const [field, refusal] of [
      ['body', /the body at \d+ is not a JSON string; rebuild with "npm run build"/],
      ['text', /the escaped body at \d+ is not a JSON string; rebuild with "npm run build"/],
    ] as const) {
      const unquoted = buildDir()
      await writeIndexFile(unquoted, [entry(1), entry(2)])
      const lines = readFileSync(join(unquoted, INDEX_FILES.entries), 'utf8').trim().split('\n')
      const [offset, length] = (JSON.parse(lines.at(-1)!) as Record<typeof field, [number, number]>)[field]
      const file = join(unquoted, INDEX_FILES.bodies)
      const bytes = readFileSync(file)
      bytes[offset + length - 1] = 0x20
      writeFileSync(file, bytes)
      expect(() => loadIndexFileSync(unquoted, BASE), field).toThrow(refusal)
    }
  })

  it('reads an article’s parts: its post, its markdown literal and that literal escaped', async () => {
    const entries = Array.from({ length: 20 }, (_, i) => entry(i, i % 7 === 0 ? '' : undefined))
    const dir = buildDir()
    await writeIndexFile(dir, entries)
    const loaded = loadIndexFileSync(dir, BASE)
    const memory = createPostIndex(entries, BASE)
    for (const { slug, markdown } of entries) {
      const parts = loaded.article(slug)!
      expect(parts, slug).toEqual(memory.article(slug))
      expect(parts.markdown.toString(), slug).toBe(JSON.stringify(markdown))
      expect(parts.markdownText.toString(), slug).toBe(JSON.stringify(JSON.stringify(markdown)).slice(1, -1))
      // The detail is the post's JSON with its extras and the markdown member before its closing brace.
      const detail = loaded.detail(slug)!.body.toString()
      expect(parts.extras.toString(), slug).toBe(',"references":[],"citedBy":[]')
      expect(detail, slug).toBe(`${parts.post.toString().slice(0, -1)}${parts.extras},"markdown":${parts.markdown}}`)
    }
    expect(loaded.article('no-such-post')).toBeUndefined()
  })

  it('fails a detail whose body was cut from the file after load, rather than answer part of it', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry(1, 'first'), entry(2, 'second')])
    const index = loadIndexFileSync(dir, BASE)
    truncateSync(join(dir, INDEX_FILES.bodies), 3)
    expect(() => index.detail('post-2')).toThrow(/the body at \d+ ends past the end of the file/)
  })

  it.runIf(existsSync('/proc/self/fd'))('closes the bodies file once the index is gone', async () => {
    const dir = buildDir()
    await writeIndexFile(dir, [entry(1)])
    const file = join(dir, INDEX_FILES.bodies)
    const opened = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(file)
        } catch {
          return false // the listing's own descriptor, closed meanwhile
        }
      }).length
    let index: ReturnType<typeof loadIndexFileSync> | undefined = loadIndexFileSync(dir, BASE)
    expect(index.detail('post-1')).toBeDefined()
    expect(opened()).toBe(1)
    index = undefined
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    for (let tries = 0; tries < 50 && opened() > 0; tries++) {
      gc()
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(opened()).toBe(0)
  })
})
