/**
 * The memory plan is a cap: a render thread or a process of the build that reaches its heap
 * limit fails the build with a message naming BUILD_MEMORY_MB, leaving nothing live; and
 * `npm run build`'s own process runs under its limit. Tiny limits stand in for a huge corpus.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { build, BuildError, type Renderer } from '../../scripts/build.ts'
import { heapFlags, workerLimits } from '../../scripts/builder/heap-limits.ts'
import { createWorkerPool } from '../../scripts/builder/render/pool.ts'
import { mainHeapFlags } from '../../scripts/builder/main-heap.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { tempDir } from '../support/temp.ts'

/** The build's pool and the plan's limits around a worker that allocates without end on "HOG". */
const hogRenderer: Renderer = {
  version: 'hog-renderer-1',
  createPool: (threads, heap) =>
    createWorkerPool(
      new URL('../fixtures/render-hog-worker.ts', import.meta.url),
      threads ?? 2,
      heap && workerLimits(heap),
    ),
}

const SOURCE = readFileSync(join(FIXTURE_CORPUS, 'cafe-latency-notes.md'), 'utf8')

/** A content folder of `count` articles. */
function corpus(count: number): NodeJS.ProcessEnv {
  const dir = tempDir('heap-limits')
  const content = join(dir, 'content')
  mkdirSync(content)
  for (let i = 0; i < count; i++)
    writeFileSync(join(content, `article-${i}.md`), SOURCE.replace(/^title: .*$/m, `title: "Article ${i}"`))
  return { ...process.env, BASE_URL: 'http://localhost:4321', CONTENT_DIR: content, DIST_DIR: join(dir, 'dist') }
}

async function failure(run: Promise<unknown>): Promise<BuildError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BuildError)
  return error as BuildError
}

const noLiveBuild = (env: NodeJS.ProcessEnv) => {
  const sites = join(env.DIST_DIR!, 'sites')
  return !existsSync(sites) || readdirSync(sites).every((key) => !existsSync(join(sites, key, 'live')))
}

describe('heap limits from the memory plan', () => {
  it('fails the build, naming BUILD_MEMORY_MB and the article, when a render thread reaches its heap limit', async () => {
    const env = corpus(3)
    const hog = join(env.CONTENT_DIR!, 'article-1.md')
    writeFileSync(hog, `${readFileSync(hog, 'utf8')}\nHOG\n`)
    const error = await failure(build(env, { renderer: hogRenderer, heaps: { render: { oldMb: 16, semiMb: 1 } } }))
    expect(error.message).toMatch(/article-1\.md: a render thread reached its heap limit.*ERR_WORKER_OUT_OF_MEMORY/)
    expect(error.message).toMatch(/raise BUILD_MEMORY_MB/)
    // Said once, for the article that reached it; the others rendered.
    expect(error.problems).toHaveLength(1)
    expect(noLiveBuild(env)).toBe(true)
  }, 120_000)

  it("fails the build, naming BUILD_MEMORY_MB, when Astro's process reaches its heap limit", async () => {
    const env = corpus(2)
    const error = await failure(build(env, { heaps: { astro: { oldMb: 16, semiMb: 1 } } }))
    expect(error.message).toMatch(/process of the build reached its heap limit.*ERR_BUILD_HEAP_LIMIT/)
    expect(error.message).toMatch(/raise BUILD_MEMORY_MB/)
    expect(noLiveBuild(env)).toBe(true)
  }, 120_000)

  it("runs npm run build's own process under its heap limit, started again in its place once", () => {
    const env = { ...corpus(2), CONTENT_DIR: join(tempDir('heap-probe'), 'missing') }
    const flags = mainHeapFlags(env, [])
    expect(flags).toEqual([expect.stringMatching(/^--max-old-space-size=\d+$/), '--max-semi-space-size=16'])
    expect(mainHeapFlags(env, ['--max-old-space-size=900'])).toEqual([])
    // Each start of the entry says its pid and heap limit; a missing CONTENT_DIR ends the build
    // right after its start under the limit.
    const probe = join(tempDir('heap-probe'), 'probe.mjs')
    writeFileSync(
      probe,
      "import v8 from 'node:v8'\nconsole.log('heap', process.pid, v8.getHeapStatistics().heap_size_limit / 2 ** 20)\n",
    )
    const run = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'bin', 'build.ts')], {
      encoding: 'utf8',
      env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` },
    })
    expect(run.stderr).toMatch(/CONTENT_DIR does not exist/)
    const starts = run.stdout.split('\n').filter((line) => line.startsWith('heap '))
    expect(starts).toHaveLength(2)
    const [first, second] = starts.map((line) => line.split(' ').map(Number))
    // The same process (execve), now with the build's limit rather than V8's default.
    expect(second![1]).toBe(first![1])
    const planned = Number(flags[0]!.split('=')[1])
    expect(second![2]).toBeGreaterThanOrEqual(planned)
    expect(second![2]).toBeLessThan(planned + 100)
    expect(first![2]).toBeGreaterThan(planned + 100)
  })

  it("says which setting raises the build process's limit before V8 stops it there", () => {
    const run = spawnSync(
      process.execPath,
      [...heapFlags({ oldMb: 160, semiMb: 16 }), join(import.meta.dirname, '..', 'fixtures', 'heap-hog.ts')],
      { encoding: 'utf8', timeout: 60_000 },
    )
    expect(run.status === null ? run.signal : run.status).not.toBe(0)
    const warning = run.stderr.indexOf('raise BUILD_MEMORY_MB')
    expect(warning).toBeGreaterThan(0)
    expect(run.stderr.indexOf('FATAL ERROR')).toBeGreaterThan(warning)
  })
})
