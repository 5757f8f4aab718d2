/**
 * Publishes scheduled articles when their date arrives (scripts/builder/schedule.ts), without the
 * writer running a build: at the instant the live build names (`nextPublication` in build.json)
 * the whole build runs again, in a process of its own, and lands as any build does, only once
 * every stage has succeeded. `npm start` runs this beside the server; the Compose deployment runs
 * it as its `publisher` service (bin/publish-scheduled.ts).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { readBuildInfo } from './build-state.ts'
import { ROOT } from './builder/build-env.ts'
import { buildClock } from './builder/schedule.ts'

/** How often the live build is read again: a build the writer runs may schedule an article. */
export const RECHECK_MS = 10_000
/** After a failed build (a bad article saved meanwhile), the next attempt waits this long. */
export const RETRY_MS = 60_000

export interface PublishSchedule {
  stop: () => void
}

/** The instant the live build of this configuration wants the next build, if any. */
export function nextPublication(distDir: string, baseUrl: string, contentDir: string): number | undefined {
  const at = readBuildInfo(distDir, baseUrl, contentDir)?.nextPublication
  return at === undefined ? undefined : Date.parse(at)
}

/** Runs `npm run build`'s entry for this configuration; resolves with whether it succeeded. */
export function runBuild(env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'build.ts')], { stdio: 'inherit', env })
    child.once('error', () => resolve(false))
    child.once('exit', (code) => resolve(code === 0))
  })
}

/**
 * Watches the live build of `env`'s configuration and builds when a scheduled article is due.
 * `build` defaults to runBuild; the timers do not keep the process alive.
 */
export function publishOnSchedule(
  env: NodeJS.ProcessEnv & { DIST_DIR: string; BASE_URL: string; CONTENT_DIR: string },
  options: { log?: (line: string) => void; build?: (env: NodeJS.ProcessEnv) => Promise<boolean> } = {},
): PublishSchedule {
  const now = buildClock(env)
  const log = options.log ?? ((line: string) => console.log(line))
  const build = options.build ?? runBuild
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const wait = (ms: number) => {
    if (stopped) return
    timer = setTimeout(check, Math.max(0, ms))
    timer.unref()
  }
  async function check(): Promise<void> {
    const due = nextPublication(env.DIST_DIR, env.BASE_URL, env.CONTENT_DIR)
    if (due === undefined || due > now())
      return wait(due === undefined ? RECHECK_MS : Math.min(due - now(), RECHECK_MS))
    log(`Publishing the articles scheduled for ${new Date(due).toISOString().slice(0, 10)}: building the site.`)
    const ok = await build(env)
    if (!ok) log(`The scheduled build failed; trying again in ${RETRY_MS / 1000} s.`)
    wait(ok ? 0 : RETRY_MS)
  }
  wait(0)
  return {
    stop: () => {
      stopped = true
      clearTimeout(timer)
    },
  }
}
