/**
 * `npm test` runs this before vitest: the suite talks to real Chromium, nginx, docker-compose and
 * Redis, so a machine without them gets them (root with apt, as in CI) or one message saying what
 * to install, before any test runs. Redis is started when none answers at the test URL.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensure, executable, missingMessage, onPath, type Requirement } from './requirements.ts'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

export const TEST_REQUIREMENTS: readonly Requirement[] = [
  {
    pkg: 'chromium',
    why: `the browser tests drive Chromium at ${CHROMIUM_PATH}`,
    present: () => executable(CHROMIUM_PATH),
  },
  { pkg: 'nginx', why: "the proxy tests run the deployment's nginx configuration", present: () => onPath('nginx') },
  {
    pkg: 'docker-compose',
    why: 'the deployment tests validate docker-compose.yml',
    present: () => onPath('docker-compose'),
  },
  { pkg: 'redis-server', why: 'the store and replica tests use a real Redis', present: () => onPath('redis-server') },
  {
    pkg: 'libxml2-utils',
    why: 'the OAI-PMH tests validate answers against the protocol’s XML schema with xmllint',
    present: () => onPath('xmllint'),
  },
]

/** Whether something answers the Redis protocol at `url` within a second. */
export function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    // Any reply (+PONG, or -NOAUTH from a server with a password) means a Redis is there.
    socket.once('data', (reply) => done(/^[+-]/.test(reply.toString())))
  })
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Starts a throwaway local Redis (no persistence) on the test URL's port; true once it answers. */
async function startRedis(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  if (!LOOPBACK.has(hostname)) return false
  const p = port || '6379'
  // A daemon writes a pid file even when none is asked for (/var/run/redis.pid): give it its own.
  spawnSync(
    'redis-server',
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '-::1',
      '--port',
      p,
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      tmpdir(),
      '--pidfile',
      redisPidFile(url),
    ],
    { stdio: 'ignore' },
  )
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url)) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

/** Where the preflight notes the Redis it started, so that the run's end stops that one only. */
export function startedRedisNote(url: string, dir = tmpdir()): string {
  return join(dir, `lattice-test-redis-${new URL(url).port || '6379'}.started`)
}

function redisPidFile(url: string, dir = tmpdir()): string {
  return join(dir, `redis-${new URL(url).port || '6379'}.pid`)
}

/**
 * Stops the Redis the preflight started for this run (test/support/global-setup.ts calls it as
 * the tests end). A Redis that was already running has no note, and is left alone; so is one
 * whose pid file no longer names the pid noted (it was restarted by someone else).
 */
export function stopStartedRedis(url: string, dir = tmpdir()): boolean {
  const note = startedRedisNote(url, dir)
  let pid: number
  try {
    pid = Number(readFileSync(note, 'utf8'))
  } catch {
    return false
  }
  rmSync(note, { force: true })
  let current: number
  try {
    current = Number(readFileSync(redisPidFile(url, dir), 'utf8'))
  } catch {
    return false // it has stopped already (Redis removes its pid file as it exits)
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid !== current) return false
  try {
    process.kill(pid, 'SIGTERM')
    return true
  } catch {
    return false
  }
}

/** Everything the suite needs, set up where possible; the message to stop with otherwise. */
export async function preflight(): Promise<string | undefined> {
  const missing = ensure(TEST_REQUIREMENTS)
  if (missing.length) return missingMessage('npm test', missing)
  // A note left by a run that never reached its end names no Redis of this run.
  rmSync(startedRedisNote(REDIS_URL), { force: true })
  if (await redisAnswers(REDIS_URL)) return undefined
  if (await startRedis(REDIS_URL)) {
    try {
      writeFileSync(startedRedisNote(REDIS_URL), readFileSync(redisPidFile(REDIS_URL), 'utf8').trim())
    } catch {
      // no pid file to name it by: the Redis is left running, as before
    }
    console.log(`Started Redis at ${REDIS_URL} for the tests.`)
    return undefined
  }
  return [
    `npm test cannot run: no Redis answers at ${REDIS_URL}.`,
    'Start one there, or set TEST_REDIS_URL to one that runs, then run npm test again:',
    `  redis-server --daemonize yes --port ${new URL(REDIS_URL).port || 6379} --save ""`,
  ].join('\n')
}

if (import.meta.main) {
  const problem = await preflight()
  if (problem) {
    console.error(problem)
    process.exitCode = 1
  }
}
