import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeLlmsFull } from '../../scripts/builder/llms-full.ts'
import { tempDir } from '../support/temp.ts'

async function* twins(texts: string[]) {
  for (const [i, text] of texts.entries()) yield { slug: `post-${i}`, text }
}

describe('llms-full.txt', () => {
  const dir = tempDir('llms-full')

  it('says when it holds every article', async () => {
    const file = join(dir, 'all.txt')
    await writeLlmsFull(file, twins(['# A\n', '# B\n']), 2, 2)
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(/^# .+: every article\n/)
    expect(text).toContain('\n---\n\n# A\n\n---\n\n# B\n')
  })

  it('says how many of how many it holds when capped, and where the rest are listed', async () => {
    const file = join(dir, 'capped.txt')
    await writeLlmsFull(file, twins(['# A\n']), 1, 5000)
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(/^# .+: the newest 1 of 5000 articles\n/)
    expect(text).toContain('/llms.txt lists every article')
    expect(text.endsWith('\n---\n\n# A\n')).toBe(true)
  })
})
