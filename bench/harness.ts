/**
 * The benchmark's settings, read from its flags, and how it runs what it measures: a timed
 * command, a server pinned to the server core, a load run repeated on the load core, and the
 * shared Redis left as it was found.
 */
import { spawnSync } from 'node:child_process'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { runWrk, type LoadResult } from './load.ts'
import { startProcess, type Running } from '../test/support/processes.ts'
import { executable, onPath, type Requirement } from '../test/support/requirements.ts'

export const ROOT = join(import.meta.dirname, '..')
export const QUICK = process.argv.includes('--quick')
/** Re-measure the service on the builds an earlier run left, without building again. */
export const SERVICE_ONLY = process.argv.includes('--service-only')
export const WORK = join(tmpdir(), 'lattice-bench')
export const NODE = process.execPath
export const SIZES = QUICK ? [300] : [1000, 10_000]
export const SERVICE_SIZE = SIZES[SIZES.length - 1]!
export const SECONDS = QUICK ? 2 : 5
export const REPEATS = QUICK ? 1 : 3
export const [SERVER_CPU, LOAD_CPU] = cpus().length > 1 ? [0, 1] : [0, 0]
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Key prefixes the run wrote in the shared Redis, removed at the end. */
export const redisPrefixes: string[] = []

/** What the run drives: the first three it cannot do without; the references are skipped if missing. */
export const NEEDS = {
  wrk: { pkg: 'wrk', why: 'generates the load', present: () => onPath('wrk') },
  taskset: {
    pkg: 'util-linux',
    why: 'taskset pins the server and the load to different cores',
    present: () => onPath('taskset'),
  },
  time: {
    pkg: 'time',
    why: '/usr/bin/time measures wall time and peak memory of a build',
    present: () => executable('/usr/bin/time'),
  },
  hugo: { pkg: 'hugo', why: 'the reference build', present: () => onPath('hugo') },
  nginx: { pkg: 'nginx', why: 'the reference static server', present: () => onPath('nginx') },
} satisfies Record<string, Requirement>

/** Runs a command, returning wall seconds and the peak resident memory of its largest process. */
export function timed(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT) {
  const out = spawnSync('/usr/bin/time', ['-f', '__TIME__ %e %M', command, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  const m = /__TIME__ ([\d.]+) (\d+)/.exec(out.stderr)
  if (out.status !== 0 || !m) throw new Error(`${command} failed: ${out.stderr.slice(-2000)}`)
  return { seconds: Number(m[1]), peakMb: Number(m[2]) / 1024, output: out.stdout + out.stderr }
}

/**
 * A server on the server core, ready once `readyUrl` answers; its output (request logs included)
 * goes to a file, as in production.
 */
export function pinned(
  args: string[],
  readyUrl: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 30_000,
): Promise<Running> {
  return startProcess('taskset', ['-c', String(SERVER_CPU), ...args], {
    cwd: ROOT,
    env,
    ready: { url: readyUrl },
    timeoutMs,
    logFile: join(WORK, 'servers.log'),
  })
}
export function load(origin: string, lines: string[], extra: Partial<Parameters<typeof runWrk>[0]> = {}): LoadResult[] {
  const results: LoadResult[] = []
  for (let i = 0; i < REPEATS; i++)
    results.push(runWrk({ origin, lines, workDir: WORK, seconds: SECONDS, cpu: LOAD_CPU, ...extra }))
  return results
}

/** Leaves the shared Redis as it was: the run issues hundreds of thousands of keys. */
export async function removeRedisKeys() {
  if (redisPrefixes.length === 0) return
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    for (const prefix of redisPrefixes) {
      let cursor = '0'
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
        if (keys.length) await redis.unlink(...keys)
        cursor = next
      } while (cursor !== '0')
    }
  } catch (e) {
    console.warn(`  could not remove the benchmark's Redis keys: ${(e as Error).message}`)
  } finally {
    redis.disconnect()
  }
}
