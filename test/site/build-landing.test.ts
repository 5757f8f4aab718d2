/**
 * A build lands once, when every stage has succeeded: one whose search stage cannot finish
 * leaves the previous build current, and `npm start` keeps serving that build and says why.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { articleFile } from '../../model/article-bucket.ts'
import { build } from '../../scripts/build.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, startProcess, type Running } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const BASE = 'http://localhost:4321'

describe('a build whose search stage fails', () => {
  const tmp = tempDir('landing')
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const buildJson = () => readFileSync(join(dist, 'current', 'build.json'), 'utf8')
  const twin = () => readFileSync(articleFile(join(dist, 'current'), 'cafe-latency-notes', 'md'), 'utf8')
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
