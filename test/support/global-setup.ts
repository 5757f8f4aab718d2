import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { build } from '../../scripts/build.ts'
import { REDIS_URL, stopStartedRedis } from './preflight.ts'

export const FIXTURE_CORPUS = join(import.meta.dirname, '..', 'fixtures', 'corpus')
export const SHIPPED_CORPUS = join(import.meta.dirname, '..', '..', 'content')

declare module 'vitest' {
  export interface ProvidedContext {
    /** DIST_DIR of a real build of test/fixtures/corpus. */
    fixtureDist: string
    /** DIST_DIR of a real build of the shipped content/. */
    shippedDist: string
  }
}

/**
 * Gives the run a temp dir of its own (workers and the processes they start inherit TMPDIR), so
 * that a folder a test forgot to remove is seen, reported and removed at the end; then builds the
 * fixture corpus and the shipped corpus once for every suite that reads a build. At the end, stops
 * the Redis the preflight started, if it started one.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // The preflight's note of a Redis it started is in the machine's temp dir, not the run's.
  const machineTmp = tmpdir()
  const runTmp = mkdtempSync(join(tmpdir(), 'lattice-test-run-'))
  // Others may pass through (not list): a test runs a command as another user from a folder in it.
  chmodSync(runTmp, 0o711)
  process.env.TMPDIR = runTmp
  const root = mkdtempSync(join(runTmp, 'lattice-builds-'))
  const fixtureDist = join(root, 'fixture')
  const shippedDist = join(root, 'shipped')
  const base = { ...process.env, BASE_URL: 'http://localhost:4321' }
  try {
    await build({ ...base, CONTENT_DIR: FIXTURE_CORPUS, DIST_DIR: fixtureDist })
    await build({ ...base, CONTENT_DIR: SHIPPED_CORPUS, DIST_DIR: shippedDist })
  } catch (e) {
    stopStartedRedis(REDIS_URL, machineTmp)
    rmSync(runTmp, { recursive: true, force: true })
    throw e
  }
  project.provide('fixtureDist', fixtureDist)
  project.provide('shippedDist', shippedDist)
  return () => {
    if (stopStartedRedis(REDIS_URL, machineTmp)) console.log(`Stopped the Redis started for the tests at ${REDIS_URL}.`)
    rmSync(root, { recursive: true, force: true })
    const left = readdirSync(runTmp).filter((name) => name.startsWith('lattice-'))
    rmSync(runTmp, { recursive: true, force: true })
    if (left.length) {
      // A failure, though every test passed: the run would otherwise litter the machine.
      console.error(
        `\nTests left temporary folders behind (make them with ` +
          `tempDir() from test/support/temp.ts): ${left.join(', ')}\n`,
      )
      process.exitCode = 1
    }
  }
}
