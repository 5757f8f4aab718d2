import { describe, expect, it } from 'vitest'
import { totalmem } from 'node:os'
import { BuildError, explainLimit } from '../../scripts/builder/errors.ts'
import { childFailure, heapFlags, type HeapLimit, workerLimits } from '../../scripts/builder/heap-limits.ts'
import {
  defaultBuildMemoryMb,
  MEMORY_MODEL,
  planLine,
  planMemory,
  sitePeakMb,
} from '../../scripts/builder/memory-plan.ts'
import { largestShard } from '../../scripts/builder/search-shards.ts'

describe('the memory plan', () => {
  it('refuses a cap no build fits, naming the least that does', () => {
    expect(() => planMemory(300, 1000)).toThrow(BuildError)
    expect(() => planMemory(300, 1000)).toThrow(
      /BUILD_MEMORY_MB.*needs about \d+ MB until its site is live.*set BUILD_MEMORY_MB to at least \d+/s,
    )
    // The least it names is enough.
    const least = Number(/at least (\d+)/.exec(String(catchError(() => planMemory(300, 50_000))))![1])
    expect(() => planMemory(least - 64, 50_000, { cores: 2 })).toThrow(BuildError)
    expect(planMemory(least, 50_000, { cores: 2 }).capMb).toBe(least)
  })

  it('sizes threads, Astro, shards and how many are indexed at once to fit the cap, up to the cores', () => {
    for (const articles of [40, 5_000, 10_000, 50_000])
      for (const cap of [1024, 2048, 3072, 6144, 16_384]) {
        let plan
        try {
          plan = planMemory(cap, articles, { cores: 2 })
        } catch (e) {
          // Refused only when the leanest site would not fit, or not one shard beside it.
          expect(e).toBeInstanceOf(BuildError)
          expect(
            sitePeakMb(articles, 1, true) > cap ||
              MEMORY_MODEL.searchParentMb(articles) + MEMORY_MODEL.shardMb(50) > cap,
          ).toBe(true)
          continue
        }
        expect(
          sitePeakMb(articles, plan.renderThreads, plan.astroAlone),
          `${articles} in ${cap} MB`,
        ).toBeLessThanOrEqual(cap)
        const largest = largestShard(articles, plan.shardBits)
        // A score process beside the shards is counted; else it takes its shard's place.
        const search =
          MEMORY_MODEL.searchParentMb(articles) +
          plan.shardParallel * MEMORY_MODEL.shardMb(largest) +
          (plan.scoresBeside ? MEMORY_MODEL.scoreMb(largest) : 0)
        expect(search, `${articles} in ${cap} MB`).toBeLessThanOrEqual(cap)
        // The render threads' memory beside the shards, unless they wait for it to leave.
        const lingering = plan.renderThreads * MEMORY_MODEL.renderThreadMb
        expect(plan.releaseBeforeSearch).toBe(search + lingering > cap)
        expect(plan.searchMb).toBe(Math.round(search + (plan.releaseBeforeSearch ? 0 : lingering)))
        expect(plan.searchMb).toBeLessThanOrEqual(cap)
        expect(MEMORY_MODEL.scoreMb(largest)).toBeLessThan(MEMORY_MODEL.shardMb(largest))
        expect(plan.shardParallel).toBeLessThanOrEqual(2)
        expect(plan.renderThreads).toBeLessThanOrEqual(2)
      }
    // One shard: nothing to read its scores beside.
    expect(planMemory(2048, 40, { cores: 2 })).toMatchObject({
      capMb: 2048,
      shardBits: 0,
      shardParallel: 1,
      scoresBeside: false,
    })
    // 16 shards of at most 750 articles, one at a time (900 MB beside this process's 510 MB): a
    // score process (223 MB) fits beside them under 1,700 MB, not under 1,460 MB.
    const sized = (cap: number) => planMemory(cap, 10_000, { cores: 2, shardArticles: 1000 })
    expect(sized(1700)).toMatchObject({ shardBits: 4, shardParallel: 1, scoresBeside: true })
    expect(sized(1460)).toMatchObject({ shardBits: 4, shardParallel: 1, scoresBeside: false })
    expect(planMemory(16_384, 10_000, { cores: 2 })).toMatchObject({
      renderThreads: 2,
      astroAlone: false,
      shardParallel: 2,
    })
  })

  it('sizes shards for one per core at once when they stay large enough, else as one alone fits', () => {
    // 50,000 in 2 GB: shards of under 600 articles, two at a time, rather than under 1,300 one at a time.
    const two = planMemory(2048, 50_000, { cores: 2 })
    expect(two.shardParallel).toBe(2)
    expect(largestShard(50_000, two.shardBits)).toBeLessThan(600)
    expect(planMemory(2048, 50_000, { cores: 1 })).toMatchObject({ shardParallel: 1, shardBits: 6 })
    // Too tight for shards of 250 articles side by side: one at a time, as large as fits.
    const tight = planMemory(1350, 2_000, { cores: 2 })
    expect(tight.shardParallel).toBe(1)
    expect(largestShard(2_000, tight.shardBits)).toBeGreaterThan(250)
  })

  it('fits 50,000 articles in 2 GB by running Astro alone, and says what it chose', () => {
    const plan = planMemory(2048, 50_000, { cores: 2 })
    expect(plan.astroAlone).toBe(true)
    // One shard at a time leaves room for the last shard's scores beside the next.
    expect(planMemory(2048, 50_000, { cores: 1 }).scoresBeside).toBe(true)
    expect(plan.siteMb).toBeLessThanOrEqual(2048)
    expect(plan.searchMb).toBeLessThanOrEqual(2048)
    expect(planLine(plan, 50_000)).toMatch(
      new RegExp(
        '^memory plan for 50000 articles under 2048 MB: \\d render threads?, Astro after them ' +
          '\\(about \\d+ MB\\); \\d+ search shards, 2 at a time(, scores beside them)? \\(about \\d+ MB\\)$',
      ),
    )
  })
})

describe('the heap limits derived from the plan', () => {
  /** A heap's whole size: its old generation and its young one (two semi-spaces and as much again). */
  const heapMb = (h: HeapLimit) => h.oldMb + 3 * h.semiMb

  it("holds every process and thread to its part's figure in the plan, whatever the cap", () => {
    for (const articles of [40, 10_000, 50_000]) {
      const plan = planMemory(2048, articles, { cores: 2 })
      const largest = largestShard(articles, plan.shardBits)
      const m = MEMORY_MODEL
      const figures = {
        main: Math.max(m.buildMb(articles), m.assembleMb(articles), m.searchParentMb(articles)),
        render: m.renderThreadMb,
        astro: m.astroMb(articles),
        shard: m.shardMb(largest),
        score: m.scoreMb(largest),
      }
      for (const [part, figure] of Object.entries(figures)) {
        const heap = plan.heaps[part as keyof typeof figures]
        // Below the figure by what the part holds outside its heap, unless at the floor a Node start needs.
        if (heap.oldMb > 128) expect(heapMb(heap), `${part} at ${articles}`).toBeLessThan(figure)
        expect(heap.oldMb === 128 || heapMb(heap) >= figure - 64, `${part} at ${articles}`).toBe(true)
      }
      // A larger cap (the default on a large machine) changes the plan's choices, never a part's limit.
      const roomy = planMemory(16_384, articles, { cores: 2 })
      expect(roomy.heaps.main).toEqual(plan.heaps.main)
      expect(roomy.heaps.render).toEqual(plan.heaps.render)
      expect(roomy.heaps.astro).toEqual(plan.heaps.astro)
    }
    // 50,000 in 2 GB: the reviewer's build process held 2,759 MB beside Astro; its limit is 600 MB.
    const plan = planMemory(2048, 50_000, { cores: 2 })
    expect(plan.heaps.main).toEqual({ oldMb: 600, semiMb: 16 })
    expect(plan.heaps.astro).toEqual({ oldMb: 1170, semiMb: 16 })
    expect(plan.heaps.render).toEqual({ oldMb: 310, semiMb: 8 })
    // The parts that run at once fit the cap with their heaps full: this process, Astro alone.
    expect(heapMb(plan.heaps.main) + heapMb(plan.heaps.astro)).toBeLessThanOrEqual(2048)
  })

  it('lets a test replace a limit', () => {
    const tiny = { oldMb: 4, semiMb: 1 }
    expect(planMemory(2048, 100, { cores: 2, heaps: { render: tiny } }).heaps).toMatchObject({
      render: tiny,
      main: planMemory(2048, 100, { cores: 2 }).heaps.main,
    })
  })

  it("says each limit as Node's flags and as a Worker's resource limits", () => {
    const limit = { oldMb: 310, semiMb: 8 }
    expect(heapFlags(limit)).toEqual(['--max-old-space-size=310', '--max-semi-space-size=8'])
    expect(workerLimits(limit)).toEqual({ maxOldGenerationSizeMb: 310, maxYoungGenerationSizeMb: 24 })
  })

  it('explains a child process that reached its heap limit, naming BUILD_MEMORY_MB', () => {
    const stderr = 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'
    const explained = explainLimit(childFailure('astro build', 'SIGABRT', `<--- Last few GCs --->\n${stderr}`))
    expect(explained).toBeInstanceOf(BuildError)
    expect(String((explained as BuildError).message)).toMatch(
      /the build: a process of the build reached its heap limit.*\(ERR_BUILD_HEAP_LIMIT\) \(raise BUILD_MEMORY_MB\)/,
    )
    // Any other failure is passed on as it is, with its own words.
    const other = explainLimit(childFailure('search shard x', 'exit 1', 'Error: no pages'))
    expect(other).not.toBeInstanceOf(BuildError)
    expect(String(other)).toMatch(/search shard x failed \(exit 1\): Error: no pages/)
  })

  it("plans by default for three quarters of the machine's memory at most", () => {
    expect(defaultBuildMemoryMb()).toBeLessThanOrEqual((totalmem() / 2 ** 20) * 0.75)
    expect(defaultBuildMemoryMb()).toBeGreaterThan(0)
  })
})

function catchError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected an error')
}
