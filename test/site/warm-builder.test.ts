/**
 * The warm builder `npm start` keeps (scripts/builder-service/): a real builder process, real
 * `npm run build` clients (bin/build.js) and real sockets.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configKey } from '../../model/build-dir.ts'
import { processAlive } from '../../model/process-alive.ts'
import { buildByService } from '../../scripts/builder-service/client.ts'
import { startWarmBuilder } from '../../scripts/builder-service/daemon.ts'
import { keepWarmBuilder } from '../../scripts/builder-service/keep-warm.ts'
import { MAX_REQUEST_BYTES, RESTART_STATUS } from '../../scripts/builder-service/protocol.ts'
import { runningBuilders, type BuilderRecord } from '../../scripts/builder-service/registry.ts'
import { WarmPrevious } from '../../scripts/builder-service/warm-previous.ts'
import { liveBuildDir } from '../../scripts/builder/dist.ts'
import { mainHeapFlags } from '../../scripts/builder/main-heap.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { siteEnv, waitFor } from '../support/processes.ts'
import { siteFile } from '../support/site-file.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')

interface Finished {
  status: number | null
  stdout: string
  stderr: string
}

/** `npm run build` as its entry runs it, with `env`; `onOut` sees its standard output as it comes. */
function runBuild(env: NodeJS.ProcessEnv, args: string[] = [], onOut?: (text: string) => void): Promise<Finished> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'build.js'), ...args], { cwd: ROOT, env })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString()
    onOut?.(stdout)
  })
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })))
}

/** The pid of the process that made the build a finished run names (dist.ts: `<stamp>-<pid>-<seq>`). */
const builtBy = (run: Finished) => Number(/-> dist\/builds\/\d+-\d+-(\d+)-\d+/.exec(run.stdout)?.[1])

/** A raw client's exchange: what it sends, and every line the builder answers until it closes. */
function exchange(socket: string, payload: string | Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const client = connect(socket)
    let answer = ''
    client.on('data', (c: Buffer) => (answer += c.toString()))
    client.once('error', reject)
    client.once('close', () => resolve(answer.split('\n').filter(Boolean)))
    client.write(payload)
  })
}

describe('the warm builder', () => {
  const tmp = tempDir('warm')
  const content = join(tmp, 'content')
  const env = siteEnv(tmp, content, 4399)
  const distDir = env.DIST_DIR!
  let builder: ChildProcess
  let builderExit: Promise<number | null>

  beforeAll(async () => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    // As npm start starts it: under the heap limit of the build's process.
    builder = spawn(process.execPath, [...mainHeapFlags(env, []), join(ROOT, 'bin', 'warm-builder.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    builderExit = new Promise((resolve) => builder.once('exit', (code) => resolve(code)))
    await waitFor(async () => (runningBuilders(distDir).length > 0 ? true : undefined), 30_000, 'the builder')
  })
  afterAll(async () => {
    if (builder.exitCode === null && builder.signalCode === null) builder.kill('SIGKILL')
    await builderExit
  })

  it('runs npm run build in its own process, with the client its output and status', async () => {
    const first = await runBuild(env)
    expect(first.status, first.stderr).toBe(0)
    expect(builtBy(first)).toBe(builder.pid)
    // The build's own lines, and the lines of the processes it starts, reach the client.
    expect(first.stdout).toMatch(/^memory plan for 3 articles/m)
    expect(first.stdout).toMatch(/^search index live after/m)

    // An edit, built from the live state the builder read after the first build.
    const file = join(content, 'hashing-rings.md')
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n\nA sentence added while warm.\n`)
    const edit = await runBuild(env)
    expect(edit.status, edit.stderr).toBe(0)
    expect(builtBy(edit)).toBe(builder.pid)
    // Only the edited file is stat'ed: the builder's watch saw no change to the others.
    expect(edit.stdout).toMatch(/^stat 1 of 3 files \(a watch saw no change to the others\)/m)
    const page = readFileSync(siteFile(join(distDir, 'current'), 'posts/hashing-rings.html'), 'utf8')
    expect(page).toContain('A sentence added while warm.')
  }, 120_000)

  it('says why a build failed and exits 1, leaving the live build', async () => {
    const live = liveBuildDir(distDir, configKey(env.BASE_URL!, content))
    const bad = join(content, 'broken-article.md')
    writeFileSync(bad, '---\ntitle: [unclosed\n---\n\nText.\n')
    try {
      const failed = await runBuild(env)
      expect(failed.status).toBe(1)
      expect(failed.stderr).toContain('broken-article.md')
      expect(liveBuildDir(distDir, configKey(env.BASE_URL!, content))).toBe(live)
    } finally {
      rmSync(bad)
    }
  }, 60_000)

  it('builds for twenty clients at once, one build after another', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, () => runBuild(env, ['--no-search'])))
    for (const run of runs) {
      expect(run.status, run.stderr).toBe(0)
      expect(builtBy(run)).toBe(builder.pid)
    }
    // Each client got a build of its own.
    const ids = runs.map((run) => /-> dist\/builds\/(\S+)/.exec(run.stdout)?.[1])
    expect(new Set(ids).size).toBe(20)
  }, 120_000)

  it('declines what is not a request, bounded in size and time, and serves on', async () => {
    const [{ socket }] = runningBuilders(distDir) as [BuilderRecord]
    // Reachable by its owner only.
    expect(statSync(socket).mode & 0o777).toBe(0o600)
    expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700)

    expect(await exchange(socket, 'not json\n')).toEqual(['{"declined":"the request is not JSON"}'])
    expect(await exchange(socket, '{"argv":"--no-search","env":{}}\n')).toEqual([
      '{"declined":"argv must be a list of strings"}',
    ])
    expect(await exchange(socket, '{"argv":[],"env":{"A":1}}\n')).toEqual(['{"declined":"env values must be strings"}'])
    expect(await exchange(socket, Buffer.alloc(MAX_REQUEST_BYTES + 1, 'a'))).toEqual([
      `{"declined":"the request is over ${MAX_REQUEST_BYTES} bytes"}`,
    ])
    // A client that says nothing is let go.
    const silent = Date.now()
    expect(await exchange(socket, '')).toEqual([])
    expect(Date.now() - silent).toBeGreaterThanOrEqual(4_000)

    const after = await runBuild(env, ['--no-search'])
    expect(after.status, after.stderr).toBe(0)
    expect(builtBy(after)).toBe(builder.pid)
  }, 60_000)

  it('hands the state it read to one build, and only while it is the live one', async () => {
    const key = configKey(env.BASE_URL!, content)
    const warm = new WarmPrevious()
    warm.prime(distDir, key)
    expect(warm.held).toBe(true)
    const first = warm.take(distDir, key)
    expect(first?.dir).toBe(liveBuildDir(distDir, key))
    // With its post index's lines, which the build keeps for the unchanged articles.
    expect([...(first?.index?.keys() ?? [])].sort()).toEqual([
      'cafe-latency-notes',
      'hashing-rings',
      'search-evaluation',
    ])
    // Given once: the next build reads its own.
    expect(warm.held).toBe(false)
    expect(warm.take(distDir, key)).toBeUndefined()
    // Not for another configuration.
    warm.prime(distDir, key)
    expect(warm.take(distDir, 'another')).toBeUndefined()

    // Another build landed after the read: the build reads the live state itself.
    warm.prime(distDir, key)
    const landed = await runBuild(env, ['--no-search'])
    expect(landed.status, landed.stderr).toBe(0)
    expect(liveBuildDir(distDir, key)).not.toBe(first?.dir)
    expect(warm.take(distDir, key)).toBeUndefined()
    // Read again, it is the new live build.
    warm.prime(distDir, key)
    expect(warm.take(distDir, key)?.dir).toBe(liveBuildDir(distDir, key))
  }, 60_000)

  it('tells the client when it stops during a build, and the next build lands whole', async () => {
    // A title edit: the list pages are made again, so the build runs long enough to be stopped.
    const file = join(content, 'search-evaluation.md')
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: "Search Evaluation, Retitled"'))
    const live = liveBuildDir(distDir, configKey(env.BASE_URL!, content))
    const [{ socket }] = runningBuilders(distDir) as [BuilderRecord]
    let killed = false
    const stopped = await runBuild(env, [], (out) => {
      if (!killed && /^validated/m.test(out)) {
        killed = true
        builder.kill('SIGKILL')
      }
    })
    expect(killed).toBe(true)
    expect(stopped.status).toBe(1)
    expect(stopped.stderr).toContain('The warm builder stopped before the build finished')
    expect(liveBuildDir(distDir, configKey(env.BASE_URL!, content))).toBe(live)
    await builderExit

    // No builder: the client builds in its own process, and takes over the dead builder's lock.
    const alone = await runBuild(env)
    // The dead builder's record and socket were removed by the client that found them.
    expect(runningBuilders(distDir)).toEqual([])
    expect(existsSync(dirname(socket))).toBe(false)
    expect(alone.status, alone.stderr).toBe(0)
    expect(builtBy(alone)).not.toBe(builder.pid)
    const page = readFileSync(siteFile(join(distDir, 'current'), 'posts/search-evaluation.html'), 'utf8')
    expect(page).toContain('Search Evaluation, Retitled')
  }, 120_000)
})

describe('a warm builder that cannot start', () => {
  const tmp = tempDir('warm-none')

  it('says why, and leaves no socket behind', async () => {
    // A DIST_DIR that is a file: its builders' folder cannot be made.
    const distDir = join(tmp, 'dist')
    writeFileSync(distDir, '')
    const env = { ...siteEnv(tmp, FIXTURE_CORPUS, 4397), DIST_DIR: distDir }
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('lattice-builder-'))
    await expect(
      startWarmBuilder({ env, codeStamp: () => 'a', exit: () => {}, heapFlags: mainHeapFlags(env, []) }),
    ).rejects.toThrow(/ENOTDIR|EEXIST/)
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('lattice-builder-'))).toEqual(before)
  })

  it('removes its socket’s folder when stopped while it starts', async () => {
    const env = siteEnv(tmp, FIXTURE_CORPUS, 4396)
    const folders = () => readdirSync(tmpdir()).filter((n) => n.startsWith('lattice-builder-'))
    const before = folders()
    const child = spawn(process.execPath, [...mainHeapFlags(env, []), join(ROOT, 'bin', 'warm-builder.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    // Its folder is made before it reads the live build and loads the renderer: stopped then.
    await waitFor(async () => (folders().length > before.length ? true : undefined), 30_000, 'its folder', 5)
    child.kill('SIGTERM')
    await exited
    expect(folders()).toEqual(before)
  })
})

describe('npm start’s warm builder', () => {
  it('is started again when it is killed, and not when its server’s group is stopped', async () => {
    const tmp = tempDir('warm-kept')
    const env = siteEnv(tmp, FIXTURE_CORPUS, 4395)
    const builder = () => waitFor(async () => runningBuilders(env.DIST_DIR!)[0], 30_000, 'a warm builder')
    const exited = (pid: number) =>
      waitFor(async () => (processAlive(pid) ? undefined : true), 10_000, `pid ${pid} to end`, 50)
    keepWarmBuilder(env, () => {})
    const first = await builder()
    process.kill(first.pid, 'SIGKILL')
    await exited(first.pid)
    const second = await builder()
    expect(second.pid).not.toBe(first.pid)
    // The dead one's socket went with its record.
    expect(existsSync(dirname(first.socket))).toBe(false)

    process.kill(second.pid, 'SIGTERM')
    await exited(second.pid)
    // Long enough for a successor to have recorded itself (the first took less).
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    expect(runningBuilders(env.DIST_DIR!)).toEqual([])
    expect(existsSync(dirname(second.socket))).toBe(false)
  }, 60_000)
})

describe('a warm builder out of date', () => {
  const tmp = tempDir('warm-stale')
  const content = join(tmp, 'content')
  const env = siteEnv(tmp, content, 4398)

  it.each([
    [
      'its code changed',
      { codeStamps: ['a', 'b'], heapFlags: undefined },
      /code changed since the warm builder started/,
    ],
    [
      'its heap limit is not the build’s',
      { codeStamps: ['a', 'a'], heapFlags: ['--max-old-space-size=1'] },
      /heap limit is now --max-old-space-size=\d+/,
    ],
  ])('declines a build when %s, and asks for a successor', async (_, { codeStamps, heapFlags }, reason) => {
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    const stamps = [...codeStamps]
    const exits: number[] = []
    const warm = await startWarmBuilder({
      env,
      codeStamp: () => stamps.shift() ?? 'later',
      exit: (status) => exits.push(status),
      heapFlags: heapFlags ?? mainHeapFlags(env, []),
    })
    try {
      const [{ socket }] = runningBuilders(env.DIST_DIR!) as [BuilderRecord]
      expect(socket).toBe(warm.socket)
      const request = JSON.stringify({ argv: [], env: { ...env } })
      const [answer] = await exchange(socket, `${request}\n`)
      expect(JSON.parse(answer!).declined).toMatch(reason)
      await waitFor(async () => (exits.length > 0 ? true : undefined), 5_000, 'the exit')
      expect(exits).toEqual([RESTART_STATUS])
      // The client then builds in its own process: it is told no builder ran its build.
      expect(await buildByService(env, [], { out: () => {}, err: () => {} })).toBeUndefined()
    } finally {
      await warm.close()
    }
    expect(existsSync(warm.socket)).toBe(false)
    expect(runningBuilders(env.DIST_DIR!)).toEqual([])
  })
})
