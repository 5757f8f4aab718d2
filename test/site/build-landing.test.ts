/**
 * A build lands when every stage has succeeded: one whose search stage cannot finish leaves the
 * previous build current, and `npm start` keeps serving that build and says why. Over a live
 * search index, an edit's pages land first, with that index, and its own index follows; should
 * it fail, the build before is put back.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { articleFile } from '../../model/article-bucket.ts'
import { build } from '../../scripts/build.ts'
import { configKey } from '../../model/build-dir.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, startProcess, type Running } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const BASE = 'http://localhost:4321'

/** A content and a dist folder of their own, the build's environment, and what the live build serves. */
function landingSite(name: string) {
  const tmp = tempDir(name)
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  return {
    tmp,
    content,
    dist,
    env: { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist },
    buildJson: () => readFileSync(join(dist, 'current', 'build.json'), 'utf8'),
    twin: () => readFileSync(articleFile(join(dist, 'current'), 'cafe-latency-notes', 'md'), 'utf8'),
  }
}

describe('a build whose search stage fails', () => {
  const { tmp, content, dist, env, buildJson, twin } = landingSite('landing')
  // The search stage writes its shards under DIST_DIR/search: a file there stops it, as a disk
  // error would.
  const blockSearch = () => writeFileSync(join(dist, 'search'), 'not a folder')
  const unblockSearch = () => rmSync(join(dist, 'search'))
  let server: Running | undefined
  afterAll(async () => {
    await server?.stop()
  })

  it('lands nothing: the previous build stays current', async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    await build(env, { search: false })
    const before = buildJson()
    const file = join(content, 'cafe-latency-notes.md')
    writeFileSync(file, readFileSync(file, 'utf8').replace('title: "Café Latency Notes"', 'title: "Café Revisited"'))
    blockSearch()
    const lines: string[] = []
    await expect(build(env, { log: (l) => lines.push(l) })).rejects.toThrow(/search/)
    // The pages were written, then the search stage failed: none of it is live.
    expect(lines.some((l) => l.startsWith('pages written'))).toBe(true)
    expect(lines.some((l) => l.startsWith('site live'))).toBe(false)
    expect(buildJson()).toBe(before)
    expect(twin()).toContain('# Café Latency Notes')
    // The failed build's folder is gone: only the live build is left.
    expect(readdirSync(join(dist, 'builds'))).toEqual([JSON.parse(before).id])
  }, 240_000)

  it('leaves npm start serving the previous build, saying the build failed', async () => {
    const before = JSON.parse(buildJson()) as { builtAt: string }
    const port = await freePort()
    server = await startProcess(process.execPath, [join(ROOT, 'bin', 'start.ts')], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(tmp, 'data') },
      ready: /listening on/,
    })
    expect(server.output()).toContain('building the site first')
    expect(server.output()).toContain(`serving the previous build, of ${before.builtAt}`)
    const page = await fetch(`http://127.0.0.1:${port}/posts/cafe-latency-notes.md`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('# Café Latency Notes')
    await server.stop()
  }, 240_000)

  it('lands whole once the search stage can finish', async () => {
    unblockSearch()
    await build(env)
    expect(twin()).toContain('# Café Revisited')
    expect(existsSync(join(dist, 'current', 'site', 'pagefind', 'shards.json'))).toBe(true)
  }, 240_000)

  it('stops npm start when the build fails and there is no build to serve', async () => {
    const empty = tempDir('landing-none')
    const port = await freePort()
    writeFileSync(join(empty, 'broken.md'), '---\ntitle: "x\n---\n')
    const started = spawnSync(process.execPath, [join(ROOT, 'bin', 'start.ts')], {
      cwd: ROOT,
      env: {
        ...env,
        CONTENT_DIR: empty,
        DIST_DIR: join(empty, 'dist'),
        DATA_DIR: join(empty, 'data'),
        PORT: String(port),
      },
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect(started.status).toBe(1)
    expect(started.stderr).toContain('broken.md')
    expect(started.stderr).not.toContain('serving the previous build')
  }, 150_000)
})

describe('an edit over a live search index', () => {
  const { content, dist, env, buildJson: live, twin } = landingSite('landing-live')
  const file = join(content, 'cafe-latency-notes.md')
  const edit = (from: string, to: string) => writeFileSync(file, readFileSync(file, 'utf8').replace(from, to))
  // The shards' shared folders: a file in their place stops the search stage, as a disk error would.
  const shards = () => join(dist, 'search', configKey(BASE, content))

  it('serves the pages before the new index is written, then lands the index', async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    await build(env)
    edit('## Queues', '## Queues and espresso')
    const lines: string[] = []
    const served: string[] = []
    await build(env, {
      log: (l) => {
        lines.push(l)
        // What a reader gets while the search stage runs.
        if (l.startsWith('search shard')) served.push(twin())
      },
    })
    const at = (phase: string) => lines.findIndex((l) => l.startsWith(phase))
    expect(at('site live')).toBeGreaterThan(at('pages written'))
    expect(at('search index written')).toBeGreaterThan(at('site live'))
    expect(at('search index live')).toBeGreaterThan(at('search index written'))
    expect(served.length).toBeGreaterThan(0)
    for (const text of served) expect(text).toContain('## Queues and espresso')
    const index = JSON.parse(readFileSync(join(dist, 'current', 'site', 'pagefind', 'shards.json'), 'utf8'))
    expect(index.shards.some((s: string) => s.startsWith('d-'))).toBe(true)
  }, 240_000)

  it('puts the live build back when the new index fails, and lands both once it can', async () => {
    const before = live()
    renameSync(shards(), `${shards()}.aside`)
    writeFileSync(shards(), 'not a folder')
    edit('## Queues and espresso', '## Queues and tea')
    const lines: string[] = []
    try {
      await expect(build(env, { log: (l) => lines.push(l) })).rejects.toThrow(/search/)
    } finally {
      rmSync(shards())
      renameSync(`${shards()}.aside`, shards())
    }
    // The pages were live while the index was written; now the build before is, alone.
    expect(lines.some((l) => l.startsWith('site live'))).toBe(true)
    expect(live()).toBe(before)
    expect(twin()).toContain('## Queues and espresso')
    expect(readdirSync(join(dist, 'builds'))).toContain(JSON.parse(before).id)
    expect(readdirSync(join(dist, 'builds')).filter((id) => id > JSON.parse(before).id)).toEqual([])
    await build(env)
    expect(twin()).toContain('## Queues and tea')
    expect(existsSync(join(dist, 'current', 'site', 'pagefind', 'shards.json'))).toBe(true)
  }, 240_000)
})
