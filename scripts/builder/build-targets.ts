/**
 * What `npm run build` builds for. A build bakes its address into every page, so a build for
 * an address nobody serves is lost work: without BASE_URL, PORT or CONTENT_DIR, the build is for
 * whatever the servers running on this checkout's DIST_DIR serve (as they recorded it), and
 * only when none runs for the defaults. With settings, it is for them, and says so when no
 * running server will pick it up.
 */
import { runningServers, type ServingRecord } from '../../model/serving-record.ts'
import { buildEnv } from './build-env.ts'

export interface BuildTarget {
  env: NodeJS.ProcessEnv
  baseUrl: string
  /** The ports of the running servers that serve this build. */
  ports: number[]
}

/** The settings a writer chooses a build with; any of them set means "build for these". */
const CHOOSING = ['BASE_URL', 'PORT', 'CONTENT_DIR'] as const

export function buildTargets(env: NodeJS.ProcessEnv): { targets: BuildTarget[]; notes: string[] } {
  const { distDir, baseUrl, contentDir } = buildEnv(env)
  const servers = runningServers(distDir)
  const chosen = CHOOSING.some((name) => env[name])
  if (!chosen && servers.length > 0) {
    const targets = new Map<string, BuildTarget>()
    for (const s of servers) {
      const key = `${s.baseUrl}\0${s.contentDir}`
      const target = targets.get(key) ?? {
        env: { ...env, BASE_URL: s.baseUrl, CONTENT_DIR: s.contentDir },
        baseUrl: s.baseUrl,
        ports: [],
      }
      target.ports.push(s.port)
      targets.set(key, target)
    }
    return { targets: [...targets.values()], notes: [] }
  }
  const serving = servers.filter((s) => s.baseUrl === baseUrl && s.contentDir === contentDir)
  const notes = serving.length === 0 && servers.length > 0 ? [unservedNote(baseUrl, servers)] : []
  return { targets: [{ env, baseUrl, ports: serving.map((s) => s.port) }], notes }
}

function unservedNote(baseUrl: string, servers: ServingRecord[]): string {
  const running = servers.map((s) => `port ${s.port} serves ${s.baseUrl}`).join(', ')
  return (
    `No running server serves ${baseUrl} (${running}): ` +
    `run "npm run build" without BASE_URL, PORT and CONTENT_DIR to build for it.`
  )
}

/** The line that ends a build: what was built, for which address, and who serves it. */
export function builtLine(target: BuildTarget, articles: number, seconds: number, id: string): string {
  const servedBy =
    target.ports.length === 0
      ? ''
      : `, served by the running server${target.ports.length > 1 ? 's' : ''} on port ${target.ports.join(', ')}`
  return `Built ${articles} articles for ${target.baseUrl}${servedBy} in ${seconds.toFixed(1)} s -> dist/builds/${id}`
}
