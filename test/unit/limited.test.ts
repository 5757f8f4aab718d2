import { describe, expect, it } from 'vitest'
import { mapAhead } from '../../scripts/builder/limited.ts'

describe('mapAhead', () => {
  it('yields in the order of the items, with no more than `ahead` calls under way', async () => {
    let running = 0
    let most = 0
    // Later items finish first: the order must still be the items'.
    const slow = async (n: number) => {
      running++
      most = Math.max(most, running)
      await new Promise((r) => setTimeout(r, 20 - n))
      running--
      return n * 10
    }
    const out: number[] = []
    for await (const v of mapAhead([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3, slow)) out.push(v)
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
    expect(most).toBe(3)
  })

  it('throws the first failure in its turn, having yielded what came before', async () => {
    const out: number[] = []
    const run = async () => {
      for await (const v of mapAhead([1, 2, 3], 3, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n)))
        out.push(v)
    }
    await expect(run()).rejects.toThrow('two')
    expect(out).toEqual([1])
  })
})
