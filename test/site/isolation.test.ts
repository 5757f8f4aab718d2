import { spawn, spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readIndexEntries } from '../../post-index/index-file-loader.ts'
import { configKey } from '../../model/build-dir.ts'
import { generateCorpus } from '../../bench/corpus.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, startProcess, type Running } from '../support/processes.ts'
import { articleFile } from '../../model/article-bucket.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const NODE = process.execPath

const buildProcess = (env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(NODE, [join(ROOT, 'bin', 'build.ts')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c))
    child.stderr.on('data', (c: Buffer) => (output += c))
    child.once('exit', (code) => resolve({ code, output }))
  })

describe('two servers of different BASE_URLs from one checkout', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-two-'))
  const content = join(tmp, 'content')
  const servers: Running[] = []
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    rmSync(tmp, { recursive: true, force: true })
  })

  it('each builds and serves its own pages, llms.txt, auth.md and API URLs', async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    const ports = [await freePort(), await freePort()]
    const bases = [`http://localhost:${ports[0]}`, 'https://research.example.org']
    const envs = ports.map((port, i) => ({
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: bases[i],
      CONTENT_DIR: content,
      DIST_DIR: join(tmp, 'dist'),
      DATA_DIR: join(tmp, `data-${i}`),
    }))
    // Both start at once: their builds run concurrently in one DIST_DIR.
    servers.push(
      ...(await Promise.all(
        envs.map((env) =>
          startProcess('npm', ['start', '--silent'], { cwd: ROOT, env, ready: /listening on/, timeoutMs: 300_000 }),
        ),
      )),
    )
    for (const [i, port] of ports.entries()) {
      const origin = `http://127.0.0.1:${port}`
      const page = await (await fetch(`${origin}/posts/hashing-rings`)).text()
      expect(page).toContain(`<link rel="canonical" href="${bases[i]}/posts/hashing-rings">`)
      expect(await (await fetch(`${origin}/llms.txt`)).text()).toContain(`(${bases[i]}/posts/hashing-rings.md)`)
      expect(await (await fetch(`${origin}/auth.md`)).text()).toContain(`curl -s -X POST ${bases[i]}/agent/identity`)
      expect(await (await fetch(`${origin}/posts/hashing-rings.md`)).text()).toContain(
        `- Canonical: ${bases[i]}/posts/hashing-rings`,
      )
      expect((await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()).url).toBe(
        `${bases[i]}/posts/hashing-rings`,
      )
    }
  }, 400_000)

  it('a server refuses to start on builds made only for another BASE_URL', async () => {
    const port = await freePort()
    const env = {
      ...process.env,
      PORT: String(port),
      BASE_URL: 'https://elsewhere.example',
      DIST_DIR: join(tmp, 'dist'),
      DATA_DIR: join(tmp, 'data-x'),
    }
    const run = spawnSync(NODE, [join(ROOT, 'auth-service', 'server.ts')], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status).toBe(1)
    expect(run.stdout + run.stderr).toContain('no build for BASE_URL https://elsewhere.example')
  }, 60_000)
})

describe('builds that run at once or are killed', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-kill-'))
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  const base = 'http://localhost:4321'
  const env = { ...process.env, BASE_URL: base, CONTENT_DIR: content, DIST_DIR: dist }
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  /** The live build is whole: its post index parses and every article in it has its page and twin. */
  const assertWhole = () => {
    const live = join(dist, 'sites', configKey(base, content))
    const info = JSON.parse(readFileSync(join(live, 'build.json'), 'utf8'))
    const posts = readIndexEntries(live)
    expect(posts.length).toBe(info.articles)
    for (const p of posts) {
      expect(readFileSync(articleFile(live, p.slug, 'page'), 'utf8')).toContain('</html>')
      expect(existsSync(articleFile(live, p.slug, 'md'))).toBe(true)
    }
    expect(readlinkSync(join(dist, 'current'))).toMatch(/^builds\//)
    return posts
  }

  it('two builds of one configuration at once both succeed, one after the other', async () => {
    generateCorpus(content, 40)
    const runs = await Promise.all([buildProcess(env), buildProcess(env)])
    for (const r of runs) expect(r.code, r.output).toBe(0)
    expect(assertWhole()).toHaveLength(40)
  }, 400_000)

  it('a build killed half way (SIGKILL) leaves the live build and the cache usable', async () => {
    const cacheFiles = () =>
      readdirSync(join(dist, 'cache', 'articles'), { recursive: true }).filter((f) => String(f).endsWith('.json'))
        .length
    const before = cacheFiles()
    const liveBefore = readlinkSync(join(dist, 'sites', configKey(base, content)))
    // Every article edited, and a title too (so Astro runs again): plenty to interrupt.
    // The articles only: the corpus also holds its bibliographies.
    const files = readdirSync(content).filter((f) => f.endsWith('.md'))
    for (const f of files)
      writeFileSync(
        join(content, f),
        `${readFileSync(join(content, f), 'utf8').replace(/^title: /m, 'title: Edited ')}\nEdited.\n`,
      )
    const child = spawn(NODE, [join(ROOT, 'bin', 'build.ts')], { cwd: ROOT, env, stdio: 'ignore' })
    const exited = new Promise((r) => child.once('exit', r))
    // Kill it once it has rendered a few of the edits into the cache, before it lands.
    for (let i = 0; i < 3000 && cacheFiles() < before + 3; i++) await new Promise((r) => setTimeout(r, 20))
    child.kill('SIGKILL')
    await exited
    expect(readlinkSync(join(dist, 'sites', configKey(base, content)))).toBe(liveBefore)
    expect(assertWhole().every((p) => !p.title.startsWith('Edited '))).toBe(true)
    // Every cache entry is whole JSON (entries are renamed into place).
    for (const f of readdirSync(join(dist, 'cache', 'articles'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json')))
      expect(() => JSON.parse(readFileSync(join(dist, 'cache', 'articles', f), 'utf8'))).not.toThrow()

    // The next build takes over the dead build's lock and lands every edit.
    const next = await buildProcess(env)
    expect(next.code, next.output).toBe(0)
    const posts = assertWhole()
    expect(posts.every((p) => p.title.startsWith('Edited '))).toBe(true)
    expect(readdirSync(join(dist, 'builds')).some((id) => id.includes(`-${child.pid}-`))).toBe(false)
  }, 400_000)
})
