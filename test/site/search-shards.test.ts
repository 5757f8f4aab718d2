import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { configKey } from '../../scripts/build/dist.ts'
import { largestShard, planShards, shardBits, shardOf } from '../../scripts/build/search-shards.ts'
import { MEMORY_MODEL, planLine, planMemory, sitePeakMb } from '../../scripts/build/memory-plan.ts'
import { BuildError } from '../../scripts/build/errors.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { tempDir } from '../support/temp.ts'
import { articleFile } from '../../model/article-bucket.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const BASE_URL = 'http://localhost:4321'

describe('search shard assignment', () => {
  it('puts an article in the shard of its slug, the same in every build', () => {
    // Pinned: a change would re-index every shard of every deployment.
    expect(['hashing-rings', 'cafe-latency-notes', 'article-00042'].map((s) => shardOf(s, 4))).toEqual([
      '4-f',
      '4-2',
      '4-8',
    ])
    expect(shardOf('hashing-rings', 0)).toBe('0-0')
    expect(shardOf('hashing-rings', 9)).toBe('9-1e2')
  })

  it('spreads articles about evenly, and sizes shards to the limit with room for the spread', () => {
    const slugs = Array.from({ length: 20_000 }, (_, i) => `article-${i}`)
    const bits = shardBits(slugs.length, 1000)
    expect(bits).toBe(5)
    const plan = planShards(
      slugs.map((slug) => ({ slug, hash: slug, title: '', author: '', description: '' })),
      bits,
      'v',
    )
    expect(plan.size).toBe(32)
    for (const shard of plan.values()) expect(shard.articles.length).toBeLessThanOrEqual(1000)
  })
})

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
        expect(plan.searchMb).toBe(Math.round(search))
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

  it('refuses BUILD_MEMORY_MB that is not a number of megabytes, before reading anything', async () => {
    const dist = tempDir('memory-cap')
    const run = build({
      ...process.env,
      BASE_URL,
      CONTENT_DIR: join(ROOT, 'test', 'fixtures', 'corpus'),
      DIST_DIR: dist,
      BUILD_MEMORY_MB: '2GB',
    })
    await expect(run).rejects.toThrow(/"2GB" is not a whole number of megabytes/)
    expect(existsSync(join(dist, 'builds'))).toBe(false)
  })

  it('refuses a cap the build cannot fit before it starts, saying what it needs', async () => {
    const dist = tempDir('memory-refused')
    const lines: string[] = []
    const run = build(
      {
        ...process.env,
        BASE_URL,
        CONTENT_DIR: join(ROOT, 'test', 'fixtures', 'corpus'),
        DIST_DIR: dist,
        BUILD_MEMORY_MB: '300',
      },
      { log: (l) => lines.push(l) },
    )
    await expect(run).rejects.toThrow(/needs about \d+ MB until its site is live.*the cap is 300 MB/s)
    expect(lines).toEqual([])
    expect(existsSync(join(dist, 'builds'))).toBe(false)
  })

  it('runs Astro after the rendering under a cap too tight for both at once, and logs the plan', async () => {
    const dist = tempDir('memory-tight')
    const cores = availableParallelism()
    const cap = Math.ceil(sitePeakMb(3, cores, true))
    expect(sitePeakMb(3, cores, false)).toBeGreaterThan(cap)
    const lines: string[] = []
    const content = join(ROOT, 'test', 'fixtures', 'corpus')
    await build(
      { ...process.env, BASE_URL, CONTENT_DIR: content, DIST_DIR: dist, BUILD_MEMORY_MB: String(cap) },
      { log: (l) => lines.push(l) },
    )
    expect(lines[0]).toMatch(
      new RegExp(`^memory plan for 3 articles under ${cap} MB: ${cores} render threads?, Astro after them`),
    )
    expect(existsSync(articleFile(join(dist, 'current'), 'hashing-rings', 'page'))).toBe(true)
  }, 120_000)
})

describe('a sharded search index', () => {
  const tmp = tempDir('search-shards')
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  const env = { ...process.env, BASE_URL, CONTENT_DIR: content, DIST_DIR: dist }
  const pagefind = () => join(dist, 'current', 'site', 'pagefind')
  /** Each shard's index file's inode: a shard indexed again is a new file, a shard kept is a link to the old one. */
  const shardFiles = () => {
    const { shards } = JSON.parse(readFileSync(join(pagefind(), 'shards.json'), 'utf8')) as { shards: string[] }
    return Object.fromEntries(shards.map((s) => [s, statSync(join(pagefind(), s, 'pagefind-entry.json')).ino]))
  }
  /** Each shard's link: to the shared folder of the build that indexed it. */
  const shardLinks = () =>
    Object.fromEntries(Object.keys(shardFiles()).map((s) => [s, readlinkSync(join(pagefind(), s))]))
  const changed = <T>(before: Record<string, T>, after: Record<string, T>) =>
    [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((s) => before[s] !== after[s]).sort()
  // 40 articles in shards of at most 10: 8 shards.
  const rebuild = () => build(env, { shardArticles: 10 })

  it('indexes only the shard of an edited, a new or a deleted article', async () => {
    generateCorpus(content, 40)
    await rebuild()
    const first = shardFiles()
    const firstLinks = shardLinks()
    expect(Object.keys(first)).toHaveLength(8)
    // What the browser ranks with: each shard's pages, words and word-index chunks.
    const { stats } = JSON.parse(readFileSync(join(pagefind(), 'shards.json'), 'utf8')) as {
      stats: Record<string, { pages: number; words: number; chunks: string[] }>
    }
    expect(Object.values(stats).reduce((n, s) => n + s.pages, 0)).toBe(40)
    for (const s of Object.values(stats)) {
      expect(s.words).toBeGreaterThan(s.pages * 1000)
      expect(s.chunks.length).toBeGreaterThan(0)
      expect(s.chunks).toEqual([...s.chunks].sort())
    }

    const edited = 'article-00007'
    writeFileSync(
      join(content, `${edited}.md`),
      `${readFileSync(join(content, `${edited}.md`), 'utf8')}\nA new closing sentence.\n`,
    )
    await rebuild()
    const second = shardFiles()
    expect(changed(first, second)).toEqual([shardOf(edited, 3)])
    // A shard indexed again is a new shared folder; the others are the same folders, linked.
    expect(changed(firstLinks, shardLinks())).toEqual([shardOf(edited, 3)])

    writeFileSync(
      join(content, 'a-new-article.md'),
      readFileSync(join(content, 'article-00001.md'), 'utf8').replace(/^title: .*$/m, 'title: A new article'),
    )
    await rebuild()
    const third = shardFiles()
    expect(changed(second, third)).toEqual([shardOf('a-new-article', 3)])

    unlinkSync(join(content, 'article-00013.md'))
    await rebuild()
    expect(changed(third, shardFiles())).toEqual([shardOf('article-00013', 3)])

    // Nothing changed: no new search index at all.
    const live = readFileSync(join(dist, 'current', 'build.json'), 'utf8')
    const lines: string[] = []
    await build(env, { shardArticles: 10, log: (l) => lines.push(l) })
    expect(lines.some((l) => l.startsWith('search index live'))).toBe(false)
    expect(JSON.parse(readFileSync(join(dist, 'current', 'build.json'), 'utf8')).id).not.toBe(JSON.parse(live).id)
  }, 300_000)

  it('a build killed while it indexes leaves the live build serving, ' +
    'and the next build completes the index', async () => {
    const before = shardFiles()
    for (const f of readdirSync(content).slice(0, 5))
      writeFileSync(join(content, f), `${readFileSync(join(content, f), 'utf8')}\nEdited again.\n`)
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'build.ts')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise((r) => child.once('exit', r))
    let out = ''
    await new Promise<void>((resolve) =>
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString()
        // The pages have landed; the search index is being written.
        if (/^site live/m.test(out)) resolve()
      }),
    )
    child.kill('SIGKILL')
    await exited
    expect(out).not.toMatch(/^search index live/m)
    // The live build is the one whose pages landed, with the previous build's search index.
    const { shards } = JSON.parse(readFileSync(join(pagefind(), 'shards.json'), 'utf8')) as { shards: string[] }
    expect(shards).toEqual(Object.keys(before))
    for (const s of shards) expect(existsSync(join(pagefind(), s, 'pagefind.js'))).toBe(true)

    const lines: string[] = []
    await build(env, { log: (l) => lines.push(l) })
    expect(lines.some((l) => l.startsWith('search index live'))).toBe(true)
    const after = JSON.parse(readFileSync(join(pagefind(), 'shards.json'), 'utf8')) as { shards: string[] }
    for (const s of after.shards) expect(existsSync(join(pagefind(), s, 'pagefind-entry.json'))).toBe(true)
    // The shards the killed build had indexed, linked by no build, are gone.
    const linked = readdirSync(join(dist, 'builds')).flatMap((id) =>
      readdirSync(join(dist, 'builds', id, 'site', 'pagefind'))
        .filter((name) => name !== 'shards.json')
        .map(
          (name) =>
            readlinkSync(join(dist, 'builds', id, 'site', 'pagefind', name))
              .split('/')
              .pop()!,
        ),
    )
    expect(readdirSync(join(dist, 'search', configKey(BASE_URL, content))).sort()).toEqual([...new Set(linked)].sort())
  }, 300_000)

  it.each([
    ['after it has started', 300],
    ['before it has started far enough to look', 0],
  ])('a shard process stops when its build is gone %s, though its input is still open', async (_when, after) => {
    // A shell stands in for the build: it starts the shard process on an input this test holds
    // open (so the process never sees its end), naming itself as the build, says its pid, and
    // is killed.
    const worker = join(ROOT, 'scripts', 'build', 'search-shard-worker.ts')
    const build = spawn('sh', ['-c', `"${process.execPath}" "${worker}" $$ <&3 & echo $!; wait`], {
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    })
    const pid = await new Promise<number>((resolve) =>
      build.stdout!.once('data', (c: Buffer) => resolve(Number(c.toString().trim()))),
    )
    try {
      if (after) {
        await new Promise((r) => setTimeout(r, after))
        expect(running(pid)).toBe(true)
      }
      build.kill('SIGKILL')
      await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false)
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL')
      ;(build.stdio[3] as NodeJS.WritableStream & { destroy(): void }).destroy()
    }
  })
})

/** True while `pid` runs (a zombie, ended but not yet reaped, has ended). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

function catchError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected an error')
}
