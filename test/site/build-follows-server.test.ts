import { spawnSync } from 'node:child_process'
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, startProcess, waitFor, type Running } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')

/** The environment without the settings that choose a build (what a writer's shell has). */
function bareEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra }
  for (const name of ['BASE_URL', 'PORT', 'CONTENT_DIR', 'HOST']) delete env[name]
  return { ...env, ...extra }
}

describe('npm run build beside a running npm start', () => {
  const tmp = tempDir('follow')
  const content = join(tmp, 'content')
  const dirs = { DIST_DIR: join(tmp, 'dist'), DATA_DIR: join(tmp, 'data') }
  let server: Running
  let port: number

  beforeAll(async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    port = await freePort()
    // As a writer would: another port, the address derived from it, their own content folder.
    const env = bareEnv({ ...dirs, PORT: String(port), CONTENT_DIR: content })
    server = await startProcess('npm', ['start', '--silent'], { cwd: ROOT, env, ready: /listening on/ })
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('builds for the address and content the server serves, and says so', async () => {
    writeFileSync(
      join(content, 'late-addition.md'),
      '---\ntitle: "Late Addition"\ndescription: "Written while the server runs."\ndate: 2026-07-01\n' +
        'author: "Ada Byrne"\ntags: [methodology]\n---\n\nBody.\n',
    )
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: bareEnv(dirs), encoding: 'utf8' })
    expect(build.status, build.stderr).toBe(0)
    expect(build.stdout).toMatch(
      new RegExp(`Built \\d+ articles for http://localhost:${port}, served by the running server on port ${port} in`),
    )
    const page = await waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/posts/late-addition`)
        await res.body?.cancel()
        return res.status === 200 ? res : undefined
      },
      10_000,
      'the new article on the running server',
    )
    expect(page.status).toBe(200)
  }, 120_000)

  it('names the running server when told to build for an address nobody serves', () => {
    const other = port === 4321 ? 4322 : 4321
    const env = bareEnv({ ...dirs, PORT: String(other), CONTENT_DIR: content })
    const build = spawnSync('npm', ['run', 'build', '--silent', '--', '--no-search'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    })
    expect(build.status, build.stderr).toBe(0)
    expect(build.stdout).toContain(`Built `)
    expect(build.stdout).toContain(`for http://localhost:${other} in`)
    expect(build.stdout).toContain(
      `No running server serves http://localhost:${other} (port ${port} serves http://localhost:${port})`,
    )
  }, 120_000)

  it('refuses a busy port in one line that names it and how to choose another', async () => {
    // The build for this port exists: npm start goes straight to listening, where the port is taken.
    const env = bareEnv({ ...dirs, PORT: String(port), CONTENT_DIR: content })
    const start = spawnSync('npm', ['start', '--silent'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 })
    expect(start.status).not.toBe(0)
    const lines = start.stderr.split('\n').filter((l) => l.trim())
    expect(lines).toEqual([expect.stringContaining(`Port ${port} is already in use`)])
    expect(lines[0]).toMatch(/PORT=\d+ npm start/)
    expect(start.stdout).not.toContain('EADDRINUSE')
  }, 60_000)

  it('says so before building, when there is no build yet', () => {
    const fresh = tempDir('busy-fresh')
    const env = bareEnv({ DIST_DIR: join(fresh, 'dist'), DATA_DIR: join(fresh, 'data'), PORT: String(port) })
    const start = spawnSync('npm', ['start', '--silent'], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 })
    expect(start.status).not.toBe(0)
    expect(start.stderr.trim()).toMatch(new RegExp(`^Port ${port} is already in use: .*PORT=\\d+ npm start$`))
    expect(start.stdout).not.toContain('building the site first')
  })
})
