/**
 * The anonymous read by slug as a user runs the service: `npm start` (bin/start.ts under npm,
 * its output to a file), with the bench's environment, against the bare node:http server
 * sending the same bytes (reference-rows.ts). The service rows start auth-service/server.ts
 * itself; this row shows what the way a user starts it adds.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { readIndexEntries } from '../post-index/index-file-loader.ts'
import { freePort } from '../test/support/processes.ts'
import { WORK, load, pinned } from './harness.ts'
import { ratio, recordLoad, type Row } from './table.ts'

/** The service's environment in the bench: limits on (their cost is part of the stack) but far above the load. */
export function benchEnv(port: number, dist: string, dataDir: string): NodeJS.ProcessEnv {
  const far = '100000000'
  return {
    ...process.env,
    PORT: String(port),
    BASE_URL: 'http://localhost:4321',
    DIST_DIR: dist,
    DATA_DIR: dataDir,
    SIGNING_KEY_SECRET: 'benchmark-secret-of-at-least-32-characters',
    RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: far,
    RATE_LIMIT_IDENTIFIED_READS_PER_MINUTE: far,
    RATE_LIMIT_KEYS_PER_HOUR: far,
    RATE_LIMIT_TOKENS_PER_MINUTE: far,
    RATE_LIMIT_IDENTITIES_PER_HOUR: far,
    RATE_LIMIT_WRITES_PER_MINUTE: far,
  }
}

/**
 * `npm start` on the build in `dist`, made from `contentDir`: it serves that build, unless the
 * sources changed since, when it builds first, as it would for a user.
 */
export async function startRows({
  dist,
  contentDir,
  posts,
  slugPaths,
  refs,
}: {
  dist: string
  contentDir: string
  posts: ReturnType<typeof readIndexEntries>
  slugPaths: string[]
  refs: Record<string, Row>
}): Promise<Row> {
  console.log(`\n\`npm start\`, ${posts.length} articles, embedded store`)
  const port = await freePort()
  const dataDir = join(WORK, 'data-npm-start')
  rmSync(dataDir, { recursive: true, force: true })
  const env = { ...benchEnv(port, dist, dataDir), CONTENT_DIR: contentDir }
  const origin = `http://127.0.0.1:${port}`
  const server = await pinned(['npm', 'start', '--silent'], `${origin}/readyz`, env, 600_000)
  try {
    const row = recordLoad('npm start: GET /api/v1/posts/:slug, anonymous', load(origin, slugPaths))
    ratio(row, refs.http)
    return row
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
