/**
 * `npm run dev`: the writer's live preview. One process serves the whole site and API at one
 * origin (the service itself), from a build of its own under `<DIST_DIR>/preview`, so it never
 * touches what `npm start` serves. Saving an article rebuilds what changed and reloads the open
 * pages; a bad article is reported in the terminal and over the page, while the last good build
 * stays served.
 */
import './compile-cache.js'
import { readlinkSync } from 'node:fs'
import { basename, dirname, isAbsolute, join } from 'node:path'
import { ConfigError, loadConfig, type Config } from '../auth-service/config.ts'
import { main } from '../auth-service/server.ts'
import { ROOT } from '../scripts/builder/build-env.ts'
import { configBuildLink } from '../model/build-dir.ts'
import { createBuilder, type BuildOutcome } from './dev/builder.ts'
import { createLiveReload } from './dev/live-reload.ts'
import { previewListener } from './dev/preview-listener.ts'
import { displayPath, formatProblems, type Problem } from './dev/problems.ts'
import { createRebuildLoop } from './dev/rebuild-loop.ts'
import { isArticleFile, isReferenceFile, isSourceFile, watchSources } from './dev/watch.ts'
import { articlePath } from '../model/article-address.ts'
import { ABOUT_FILE } from '../scripts/builder/source-stats.ts'
import { ABOUT_PATH } from '../site/lib/about.ts'

let config: Config
try {
  config = loadConfig(process.env)
} catch (e) {
  if (!(e instanceof ConfigError)) throw e
  console.error(e.message)
  process.exit(1)
}

const distDir = join(config.distDir, 'preview')
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DIST_DIR: distDir,
  // The preview shows scheduled articles, each marked as such (scripts/builder/schedule.ts).
  SHOW_SCHEDULED: 'true',
  // The terminal is the writer's: request logs would bury the build reports.
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
}
const say = (line: string) => console.log(`[preview] ${line}`)
/** How long reloading pages get before the API's index loads (see freshIndex). */
const PAGES_FIRST_MS = 1000

/** The link to the preview's live build (the build swaps it); open pages made from another one reload. */
const liveLink = configBuildLink(distDir, config.baseUrl, config.contentDir)
const liveBuild = () => {
  try {
    return basename(readlinkSync(liveLink))
  } catch {
    return 'none'
  }
}
/** Problem paths as the writer knows them: the build names articles relative to CONTENT_DIR. */
const located = (problems: Problem[]) =>
  problems.map((p) => ({
    ...p,
    file: displayPath(
      p.file && !isAbsolute(p.file) && isArticleFile(p.file) ? join(config.contentDir, p.file) : p.file,
    ),
  }))

const live = createLiveReload({ build: liveBuild(), problems: [] })
let service: Awaited<ReturnType<typeof main>> | undefined
/**
 * The API's index is loaded lazily: at 1,000 articles loading it blocks this thread for about a
 * second, which would hold up the very pages a build has just changed. It loads when an API
 * request needs it or once the reloading pages have had their moment, whichever comes first.
 */
let indexStale = false
let indexLoading: Promise<void> | undefined
const freshIndex = (): Promise<void> => {
  if (!indexStale || !service) return indexLoading ?? Promise.resolve()
  indexStale = false
  return (indexLoading ??= service
    .reloadIndex()
    .catch((e: Error) => say(`the API keeps the previous articles: ${e.message}`))
    .finally(() => (indexLoading = undefined)))
}

/** The files the running build was asked for. */
let building: string[] = []
/** The article pages those files are the sources of: open ones reload without checking first. */
const pagesOf = (files: string[]) =>
  files
    .filter((f) => dirname(f) === config.contentDir && isArticleFile(basename(f)))
    .map((f) => (basename(f) === ABOUT_FILE ? ABOUT_PATH : articlePath(basename(f, '.md'))))

let announcing = Promise.resolve()
/** Tells open pages about a build that has landed (part of one, or all of it), once each. */
const announceLanding = () =>
  (announcing = announcing.then(async () => {
    const build = liveBuild()
    if (build === live.state().build) return
    live.publish({ build, problems: [], changed: pagesOf(building) })
    indexStale = true
    setTimeout(() => void freshIndex(), PAGES_FIRST_MS).unref()
  }))

const builder = createBuilder(env, () => void announceLanding())
try {
  service = await main(env, {
    withoutBuild: true,
    watchIndex: false,
    announce: false,
    wrap: (app) =>
      previewListener(app, live, join(liveLink, 'site'), {
        baseUrl: config.baseUrl,
        beforeApi: freshIndex,
      }),
  })
} catch (e) {
  if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e
  console.error(
    `[preview] port ${config.port} is in use (is npm start running?): stop it, or start the preview with another PORT`,
  )
  process.exit(1)
}
const loop = createRebuildLoop(
  (files) => {
    building = files
    return builder.run()
  },
  async (outcome: BuildOutcome, changed) => {
    await announceLanding()
    if (!outcome.ok) live.publish({ build: live.state().build, problems: located(outcome.problems) })
    else if (live.state().problems.length > 0) live.publish({ build: live.state().build, problems: [] })
    report(outcome, changed)
  },
)
// Watching starts before the first build, so that a save made while it runs is not missed.
const stopWatching = watchSources(
  [
    { dir: config.contentDir, recursive: false, accept: (n) => isArticleFile(n) || isReferenceFile(n) },
    { dir: join(ROOT, 'site'), recursive: true, accept: isSourceFile },
    { dir: join(ROOT, 'search', 'browser'), recursive: true, accept: isSourceFile },
  ],
  (files) => loop.changed(files),
  (e) => say(`watching stopped working (${e.message}): restart the preview`),
)
const stop = () => {
  stopWatching()
  // Open event streams would hold the server's shutdown until its drain timeout.
  live.close()
  void builder.close()
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)

say(`serving on ${service.origin}; building ${displayPath(config.contentDir)} into ${displayPath(distDir)}…`)
loop.changed([])
await loop.idle()
say(`ready on ${service.origin} (live reload on; Ctrl+C stops)`)

function report(outcome: BuildOutcome, changed: string[]): void {
  const cause = changed.length === 0 ? '' : `${changed.map((f) => displayPath(f)).join(', ')} changed: `
  if (outcome.ok) {
    say(`${cause}${changed.length === 0 ? 'built' : 'rebuilt'} in ${outcome.ms} ms`)
    return
  }
  console.error(`[preview] ${cause}${formatProblems(located(outcome.problems))}`)
  if (!outcome.expected && outcome.detail) console.error(outcome.detail)
}
