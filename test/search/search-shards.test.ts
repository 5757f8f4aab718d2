import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { configKey } from '../../model/build-dir.ts'
import { planShards, shardBits, shardOf } from '../../scripts/builder/search-shards.ts'
import { sitePeakMb } from '../../scripts/builder/memory-plan.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { VOCABULARY_DIR } from '../../search/build/vocabulary.ts'
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

describe('the memory plan in a build', () => {
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

  it('indexes anew only the shard of a deleted article, and puts edited and new ones in a delta shard', async () => {
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

    // A deletion alone: its shard is indexed anew (nothing to put in a delta).
    unlinkSync(join(content, 'article-00013.md'))
    await rebuild()
    const second = shardFiles()
    expect(changed(first, second)).toEqual([shardOf('article-00013', 3)])
    // A shard indexed again is a new shared folder; the others are the same folders, linked.
    expect(changed(firstLinks, shardLinks())).toEqual([shardOf('article-00013', 3)])

    // An edit: every shard kept, and the article in a delta shard of its own; its old page hidden.
    const edited = 'article-00007'
    writeFileSync(
      join(content, `${edited}.md`),
      `${readFileSync(join(content, `${edited}.md`), 'utf8')}\nA new closing sentence.\n`,
    )
    await rebuild()
    const third = shardFiles()
    const [delta] = changed(second, third)
    expect(changed(second, third)).toEqual([delta])
    expect(delta).toMatch(/^d-[0-9a-f]{16}$/)
    const index = () =>
      JSON.parse(readFileSync(join(pagefind(), 'shards.json'), 'utf8')) as {
        stats: Record<string, { pages: number; hidden?: { pages: number[]; ids: string[] } }>
        groups: Array<{ name: string; shards: string[] }>
      }
    expect(index().stats[delta!]!.pages).toBe(1)
    expect(index().stats[shardOf(edited, 3)]!.hidden?.pages).toHaveLength(1)
    expect(index().stats[shardOf(edited, 3)]!.hidden?.ids).toHaveLength(1)
    expect(index().groups.at(-1)!.shards).toEqual([delta])

    // A new article joins the delta, which is made anew; the base shards are still kept.
    writeFileSync(
      join(content, 'a-new-article.md'),
      readFileSync(join(content, 'article-00001.md'), 'utf8').replace(/^title: .*$/m, 'title: A new article'),
    )
    await rebuild()
    const fourth = shardFiles()
    // Shard names are hashes: the new delta is the changed name that is not the old one.
    const next = changed(third, fourth).find((name) => name !== delta)
    expect(changed(third, fourth)).toEqual([delta!, next!].sort())
    expect(index().stats[next!]!.pages).toBe(2)

    // Nothing changed: no new search index at all.
    const live = readFileSync(join(dist, 'current', 'build.json'), 'utf8')
    const lines: string[] = []
    await build(env, { shardArticles: 10, log: (l) => lines.push(l) })
    expect(lines.some((l) => l.startsWith('search index live'))).toBe(false)
    expect(JSON.parse(readFileSync(join(dist, 'current', 'build.json'), 'utf8')).id).not.toBe(JSON.parse(live).id)
  }, 300_000)

  it('a build killed while it indexes leaves its pages serving with the live index, ' +
    'and the next build completes the index', async () => {
    const before = shardFiles()
    const liveBefore = readFileSync(join(dist, 'current', 'build.json'), 'utf8')
    for (const f of readdirSync(content)
      .filter((f) => f.endsWith('.md'))
      .slice(0, 5))
      writeFileSync(join(content, f), `${readFileSync(join(content, f), 'utf8')}\nEdited again.\n`)
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'build.ts')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise((r) => child.once('exit', r))
    let out = ''
    await new Promise<void>((resolve) =>
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString()
        // The pages have landed, with the live index; the new index is being written.
        if (/^site live/m.test(out)) resolve()
      }),
    )
    child.kill('SIGKILL')
    await exited
    expect(out).not.toMatch(/^search index live/m)
    // Its pages landed with the previous build's search index, whole; nothing of the new index did.
    expect(readFileSync(join(dist, 'current', 'build.json'), 'utf8')).not.toBe(liveBefore)
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
        .filter((name) => name !== 'shards.json' && name !== VOCABULARY_DIR)
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
    const worker = join(ROOT, 'scripts', 'builder', 'search-shard-worker.ts')
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
