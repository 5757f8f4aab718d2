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
import { build, BuildError } from '../../scripts/build.ts'
import { IN_THREAD_RENDERS } from '../../scripts/build/entries.ts'
import { mainHeapFlags } from '../../scripts/build/main-heap.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { tempDir } from '../support/temp.ts'

const SOURCE = readFileSync(join(FIXTURE_CORPUS, 'cafe-latency-notes.md'), 'utf8')

/** A content folder of `count` articles: more than IN_THREAD_RENDERS, so that threads render them. */
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
  it('fails the build, naming BUILD_MEMORY_MB, when a render thread reaches its heap limit', async () => {
    const env = corpus(IN_THREAD_RENDERS + 4)
    const error = await failure(build(env, { heaps: { render: { oldMb: 4, semiMb: 1 } } }))
    expect(error.message).toMatch(/render thread reached its heap limit.*ERR_WORKER_OUT_OF_MEMORY/)
    expect(error.message).toMatch(/raise BUILD_MEMORY_MB/)
    // Said once, not once per article.
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
})
