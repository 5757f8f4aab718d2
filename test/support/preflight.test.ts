import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { redisAnswers, startedRedisNote, stopStartedRedis } from './preflight.ts'
import { freePort, waitFor } from './processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'node_modules', '.bin')
const testScript: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.test

/**
 * Runs the README's test command as npm does (its script through /bin/sh, node_modules/.bin
 * first on PATH), asking vitest for a file that does not exist: were the preflight to pass,
 * vitest would start and say so.
 */
function npmTest(env: NodeJS.ProcessEnv, as: { uid?: number; gid?: number } = {}, root = ROOT) {
  return spawnSync('/bin/sh', ['-c', `${testScript} test/support/no-such-file.test.ts`], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
    ...as,
  })
}

/**
 * What the test command runs before vitest (the preflight and Node), in a folder anyone may
 * enter: a checkout may sit in a folder only its owner can (a home directory of mode 0700), and
 * another user could not start it there.
 */
function reachableCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-preflight-'))
  chmodSync(dir, 0o755)
  for (const file of [
    'package.json',
    'test/support/preflight.ts',
    'test/support/requirements.ts',
    'node_modules/.bin/node',
  ]) {
    mkdirSync(dirname(join(dir, file)), { recursive: true, mode: 0o755 })
    const source = realpathSync(join(ROOT, file))
    // A link where the file system allows it: Node's binary is large.
    try {
      linkSync(source, join(dir, file))
    } catch {
      copyFileSync(source, join(dir, file))
      chmodSync(join(dir, file), 0o755)
    }
  }
  return dir
}

/** Exit 1, nothing on stdout, and exactly these lines on stderr. */
function expectStopped(r: ReturnType<typeof npmTest>, lines: string[]) {
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr.trim() }).toEqual({
    status: 1,
    stdout: '',
    stderr: lines.join('\n'),
  })
}

describe('npm test on a machine that lacks what the suite drives', () => {
  it('stops before vitest with one message naming every missing package and the command that installs them', () => {
    const r = npmTest({ PATH: BIN, HOME: ROOT, CHROMIUM_PATH: '/nonexistent/chromium', TEST_NO_INSTALL: '1' })
    expectStopped(r, [
      'npm test cannot run: chromium, nginx, docker-compose, redis-server and libxml2-utils are missing.',
      '  chromium: the browser tests drive Chromium at /nonexistent/chromium',
      "  nginx: the proxy tests run the deployment's nginx configuration",
      '  docker-compose: the deployment tests validate docker-compose.yml',
      '  redis-server: the store and replica tests use a real Redis',
      '  libxml2-utils: the OAI-PMH tests validate answers against the protocol’s XML schema with xmllint',
      'Install them, then run npm test again:',
      '  apt-get install -y chromium nginx docker-compose redis-server libxml2-utils',
    ])
  })

  it('tells a user who is not root to use sudo, and installs nothing', () => {
    // As nobody when the suite runs as root. nobody's PATH, like most users', has no /usr/sbin,
    // where Debian puts nginx.
    const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
    const root = reachableCopy()
    let r: ReturnType<typeof npmTest>
    try {
      r = npmTest({ PATH: `${join(root, 'node_modules', '.bin')}:/usr/bin:/bin`, HOME: '/nonexistent' }, nobody, root)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
    expectStopped(r, [
      'npm test cannot run: nginx is missing.',
      "  nginx: the proxy tests run the deployment's nginx configuration",
      'Install it, then run npm test again:',
      '  sudo apt-get install -y nginx',
    ])
  })

  it('starts Redis where none answers at the test URL, and the end of the run stops it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`
    expect(await redisAnswers(url)).toBe(false)
    const r = runPreflight(url)
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 })
    try {
      expect(r.stderr).toBe('')
      expect(r.stdout).toBe(`Started Redis at ${url} for the tests.\n`)
      expect(r.status).toBe(0)
      expect(await redis.ping()).toBe('PONG')
      expect(existsSync(startedRedisNote(url))).toBe(true)
      // What the global teardown calls as the tests end.
      expect(stopStartedRedis(url)).toBe(true)
      await waitFor(async () => ((await redisAnswers(url)) ? undefined : true), 10_000, 'Redis to stop')
      expect(existsSync(startedRedisNote(url))).toBe(false)
    } finally {
      await redis.shutdown('NOSAVE').catch(() => {})
      redis.disconnect()
    }
  })

  it('leaves alone a Redis that was already running', async () => {
    const port = await freePort()
    const url = `redis://127.0.0.1:${port}`
    const own = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
      stdio: 'ignore',
    })
    try {
      await waitFor(async () => ((await redisAnswers(url)) ? true : undefined), 10_000, 'Redis to answer')
      const r = runPreflight(url)
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: '', stderr: '' })
      expect(existsSync(startedRedisNote(url))).toBe(false)
      expect(stopStartedRedis(url)).toBe(false)
      expect(await redisAnswers(url)).toBe(true)
    } finally {
      own.kill('SIGTERM')
      await once(own, 'exit')
    }
  })
})

function runPreflight(url: string) {
  return spawnSync(join(BIN, 'node'), [join(import.meta.dirname, 'preflight.ts')], {
    env: { ...process.env, TEST_REDIS_URL: url },
    encoding: 'utf8',
  })
}
