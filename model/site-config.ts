/**
 * Where the site is and where it is served: the settings the build, the server and the live
 * preview read alike (a build is made for one BASE_URL and CONTENT_DIR, and a server serves only
 * a build made for its own). The service's own settings extend these (auth-service/config.ts).
 */
import { ORIGIN_MAX } from './wire-limits.ts'
import { resolve } from 'node:path'

/** The defaults of these settings, as docs/configuration.md lists them. */
export const SITE_ENV_DEFAULTS = {
  PORT: '4321',
  HOST: '127.0.0.1',
  BASE_URL: 'http://localhost:$PORT',
  CONTENT_DIR: './content',
  DIST_DIR: './dist',
  /** robots.txt's Content Signals (site/lib/robots.ts), read by the build. */
  CONTENT_SIGNALS: 'search=yes, ai-input=yes, ai-train=no',
} as const

export interface SiteConfig {
  readonly port: number
  readonly host: string
  /** Public origin, no trailing slash: every absolute URL and the OAuth metadata derive from it. */
  readonly baseUrl: string
  readonly contentDir: string
  /** Where scripts/build.ts puts builds; `<distDir>/current` is the live one. */
  readonly distDir: string
}

/** The environment is not a valid configuration: start-up stops with every problem listed. */
export class ConfigError extends Error {
  readonly code = 'invalid_configuration'
  readonly problems: readonly string[]
  constructor(problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join('\n- ')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

/** The site's settings from `env`, adding what is wrong to `problems`; paths resolve from `cwd`. */
export function parseSiteConfig(env: NodeJS.ProcessEnv, cwd: string, problems: string[]): SiteConfig {
  const rawPort = env.PORT ?? SITE_ENV_DEFAULTS.PORT
  const port = Number(rawPort)
  if (!/^\d+$/.test(rawPort) || port > 65535)
    problems.push(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`)
  return {
    port,
    host: env.HOST ?? SITE_ENV_DEFAULTS.HOST,
    baseUrl: parseOrigin(env.BASE_URL ?? SITE_ENV_DEFAULTS.BASE_URL.replace('$PORT', String(port)), problems),
    contentDir: resolve(cwd, env.CONTENT_DIR ?? SITE_ENV_DEFAULTS.CONTENT_DIR),
    distDir: resolve(cwd, env.DIST_DIR ?? SITE_ENV_DEFAULTS.DIST_DIR),
  }
}

/** The site's settings, or a ConfigError listing every problem. */
export function loadSiteConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): SiteConfig {
  const problems: string[] = []
  const config = parseSiteConfig(env, cwd, problems)
  if (problems.length > 0) throw new ConfigError(problems)
  return Object.freeze(config)
}

/**
 * The longest origin: https, a host name of 253 characters (RFC 1035 §2.3.4, the longest a DNS
 * name is written) and a port. The headers that carry absolute URLs are bounded from it
 * (model/signposting.ts).
 */
export const ORIGIN_MAX_LENGTH = ORIGIN_MAX

/** An http(s) origin (the site is served from the root), normalised without a trailing slash. */
function parseOrigin(value: string, problems: string[]): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problems.push(`BASE_URL must be an absolute http(s) URL, got "${value}"`)
    return ''
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push(`BASE_URL must use http or https, got "${value}"`)
  if (url.pathname !== '/' || url.search || url.hash || url.username)
    problems.push(`BASE_URL must be a bare origin like https://research.example.org, got "${value}"`)
  if (url.origin.length > ORIGIN_MAX_LENGTH)
    problems.push(`BASE_URL must be an origin of at most ${ORIGIN_MAX_LENGTH} characters (a host name of 253 at most)`)
  return url.origin
}
