import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runningBuilders } from '../../scripts/builder-service/registry.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, siteEnv, startProcess, waitFor, type Running } from '../support/processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')

describe('npm start', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'lattice-start-'))
  const content = join(tmp, 'content')
  let env: NodeJS.ProcessEnv
  let server: Running
  let origin: string

  beforeAll(async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    env = siteEnv(tmp, content, port)
    // No build exists yet: npm start must make one before it serves.
    server = await startProcess('npm', ['start', '--silent'], { cwd: ROOT, env, ready: /listening on/ })
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(tmp, { recursive: true, force: true })
  })

  it('builds first, then serves a page, a markdown twin and the API from one origin', async () => {
    expect(server.output()).toContain('building the site first')
    const page = await fetch(`${origin}/posts/cafe-latency-notes`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('Café Latency Notes')

    const md = await fetch(`${origin}/posts/cafe-latency-notes.md`)
    expect(md.status).toBe(200)
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    const twin = await md.text()
    expect(twin).toContain('# Café Latency Notes')
    // The article's own address answers with the twin to a client that prefers markdown.
    const negotiated = await fetch(`${origin}/posts/cafe-latency-notes`, {
      headers: { Accept: 'text/markdown, text/html;q=0.5' },
    })
    expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(negotiated.headers.get('vary')).toMatch(/\bAccept\b/)
    expect(await negotiated.text()).toBe(twin)
    expect(page.headers.get('vary')).toMatch(/\bAccept\b/)

    const api = await fetch(`${origin}/api/v1/posts/cafe-latency-notes`)
    expect(api.status).toBe(200)
    const post = await api.json()
    expect(post.url).toBe(`${env.BASE_URL}/posts/cafe-latency-notes`)

    const missing = await fetch(`${origin}/no-such-page`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('Page not found')
  })

  it('serves hashed assets with a long cache life', async () => {
    const html = await (await fetch(`${origin}/posts/cafe-latency-notes`)).text()
    const css = html.match(/href="(\/_astro\/[^"]+\.css)"/)?.[1]
    expect(css).toBeTruthy()
    const res = await fetch(`${origin}${css}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('immutable')
    // The search index: a shard's and a group's files are named by their content; the files
    // that name them are rewritten by each build.
    const { shards, stats, groups } = await (await fetch(`${origin}/pagefind/shards.json`)).json()
    const shard = shards[0]
    const cacheOf = async (path: string) => {
      const answer = await fetch(`${origin}${path}`)
      expect(answer.status, path).toBe(200)
      return answer.headers.get('cache-control')
    }
    const forever = 'public, max-age=31536000, immutable'
    // A shard's score file is named by the word-index chunk it is read from, not by its bytes.
    expect(await cacheOf(`/pagefind/${shard}/scores/${stats[shard].scores[0]}.pf_score`)).not.toBe(forever)
    expect(await cacheOf(`/pagefind/${shard}/places/${stats[shard].places}/0.pf_places`)).toBe(forever)
    expect(await cacheOf(`/pagefind/${groups[0].name}/${groups[0].files[0]}.pf_group`)).toBe(forever)
    expect(await cacheOf('/pagefind/shards.json')).toBe('public, max-age=0, must-revalidate')
    expect(await cacheOf(`/pagefind/${shard}/pagefind-entry.json`)).toBe('public, max-age=0, must-revalidate')
  })

  it('picks up a rebuild without a restart', async () => {
    writeFileSync(
      join(content, 'fresh-findings.md'),
      '---\ntitle: "Fresh Findings"\ndescription: "Published while the server runs."\n' +
        'date: 2026-06-01\nauthor: "Ada Byrne"\ntags: [methodology]\n---\n\nNew results.\n',
    )
    // npm start keeps a builder warm beside the server, and npm run build runs in it.
    // It starts after the server listens: until it is ready, a build runs in its own process.
    const builder = await waitFor(async () => runningBuilders(env.DIST_DIR!)[0], 20_000, 'the warm builder')
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, env, encoding: 'utf8' })
    expect(build.status, build.stderr).toBe(0)
    expect(build.stdout).toMatch(new RegExp(`-> dist/builds/\\d+-\\d+-${builder.pid}-\\d+`))
    const newest = await waitFor(
      async () => {
        const body = await (await fetch(`${origin}/api/v1/posts?limit=1`)).json()
        return body.posts[0]?.slug === 'fresh-findings' ? body.posts[0] : undefined
      },
      10_000,
      'the new article in the API',
    )
    expect(newest.title).toBe('Fresh Findings')
    expect((await fetch(`${origin}/posts/fresh-findings`)).status).toBe(200)
    expect((await fetch(`${origin}/api/v1/search?q=fresh`)).status).toBe(200)
  }, 90_000) // a whole build (Astro and Pagefind) runs inside this case

  it('does not rebuild when nothing changed, and stops on SIGTERM', async () => {
    const [builder] = runningBuilders(env.DIST_DIR!)
    expect(builder).toBeDefined()
    await server.stop()
    // Its warm builder stopped with it, and took its socket and record along.
    expect(runningBuilders(env.DIST_DIR!)).toEqual([])
    expect(existsSync(builder!.socket)).toBe(false)
    const again = await startProcess('npm', ['start', '--silent'], { cwd: ROOT, env, ready: /listening on/ })
    try {
      expect(again.output()).not.toContain('building the site first')
      expect((await fetch(`${origin}/api/v1/posts/fresh-findings`)).status).toBe(200)
    } finally {
      await again.stop()
    }
    expect(again.output()).toContain('"msg":"stopped"')
    // Not a terminal: the lines stay JSON, and the MCP SDK has nothing to warn about.
    expect(again.output()).toMatch(/"msg":"listening on http:/)
    expect(again.output()).not.toContain('responseMode')
    await expect(fetch(`${origin}/api/v1`)).rejects.toThrow()
  })

  it('says where the site is in one plain line in a terminal', async () => {
    // script(1) gives the command a terminal of its own, as a writer's shell would.
    const inTerminal = await startProcess('script', ['-qfec', `${process.execPath} bin/start.ts`, '/dev/null'], {
      cwd: ROOT,
      env,
      ready: /is serving/,
    })
    try {
      expect(inTerminal.output()).toContain(
        `Lattice Research is serving ${env.BASE_URL} (embedded store in ${join(tmp, 'data')})`,
      )
      expect(inTerminal.output()).not.toMatch(/listening on|responseMode/)
      expect((await fetch(`${origin}/api/v1/posts/fresh-findings`)).status).toBe(200)
    } finally {
      await inTerminal.stop()
    }
  })
})
