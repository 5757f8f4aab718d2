/**
 * `npm start`: builds when there is no build, it is older than the content or the site's
 * sources, or a scheduled article is due; then serves site and API from one process, and builds
 * again when the next scheduled article is due (scripts/publish-schedule.ts). When a build fails
 * and an older one exists, it says so and serves the older one; with no build at all, it exits.
 */
import './compile-cache.js'
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { loadConfig } from '../auth-service/config.ts'
import { exitOnListenError } from '../auth-service/http/listen-error.ts'
import { computeInputs, isStale, readBuildInfo } from '../scripts/build-state.ts'
import { ROOT, buildEnv } from '../scripts/builder/build-env.ts'
import { buildClock } from '../scripts/builder/schedule.ts'
import { nextPublication, publishOnSchedule } from '../scripts/publish-schedule.ts'

const { contentDir, baseUrl, distDir } = buildEnv(process.env)
const { port, host } = loadConfig(process.env, ROOT)
// A taken port is said at once, not after a build that this process could not serve.
await new Promise<void>((resolve, reject) => {
  const probe = createServer()
  probe.once('error', reject)
  probe.listen(port, host, () => probe.close(() => resolve()))
}).catch(exitOnListenError)
const due = nextPublication(distDir, baseUrl, contentDir)
if (isStale(distDir, computeInputs(contentDir, baseUrl)) || (due !== undefined && due <= buildClock(process.env)())) {
  console.log('The build is missing or out of date: building the site first.')
  // A separate process, so the server does not carry the build's memory.
  // Told what to build for: without settings, the build would follow a server already running.
  const env = { ...process.env, BASE_URL: baseUrl, CONTENT_DIR: contentDir }
  const built = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.ts')], { stdio: 'inherit', env })
  // A failed build lands nothing (scripts/build.ts): the previous build, if any, is still whole.
  const previous = built.status !== 0 ? readBuildInfo(distDir, baseUrl, contentDir) : undefined
  if (built.status !== 0 && !previous) process.exit(built.status ?? 1)
  if (previous)
    console.error(
      `The build failed (above): serving the previous build, of ${previous.builtAt}, until one succeeds. ` +
        'Fix what it names and run npm run build: this server picks the new build up without a restart.',
    )
}
const { main } = await import('../auth-service/server.ts')
await main().catch(exitOnListenError)
// `npm run build` is run by a builder kept warm beside the server (scripts/builder-service/).
const { keepWarmBuilder } = await import('../scripts/builder-service/keep-warm.ts')
keepWarmBuilder({ ...process.env, BASE_URL: baseUrl, CONTENT_DIR: contentDir, DIST_DIR: distDir }, (line) =>
  console.error(line),
)
// Scheduled articles go live when their date arrives, by a build this process runs then.
publishOnSchedule({ ...process.env, BASE_URL: baseUrl, CONTENT_DIR: contentDir, DIST_DIR: distDir })
