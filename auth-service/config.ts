import { resolve } from 'node:path'
import { ConfigError, parseSiteConfig, type SiteConfig } from '../model/site-config.ts'
import { DEFAULT_RATE_LIMITS, ENV_DEFAULTS, RATE_LIMIT_VARS, type RateLimits } from './defaults.ts'

export { ConfigError }

/** The site's settings (model/site-config.ts), which the build shares, and the service's own. */
export interface Config extends SiteConfig {
  readonly dataDir: string
  readonly redisUrl: string | undefined
  /** A Redis Cluster's seed nodes (REDIS_CLUSTER_NODES); exclusive with redisUrl. */
  readonly redisClusterNodes: readonly { host: string; port: number }[] | undefined
  /** Namespaces this deployment's keys in a shared Redis. */
  readonly redisKeyPrefix: string
  readonly anonymousRegistration: boolean
  /** Seals the signing key in the store; generated in DATA_DIR when unset. */
  readonly signingKeySecret: string | undefined
  readonly logLevel: string
  /** Express "trust proxy": the hops allowed to set X-Forwarded-* (e.g. "loopback" behind nginx). */
  readonly trustProxy: string | boolean
  /**
   * Origins whose client ID metadata documents may be fetched from private or loopback addresses,
   * and over http: a client under development on this machine. Empty unless CLIENT_METADATA_DEV_ORIGINS is set.
   */
  readonly clientMetadataDevOrigins: readonly string[]
  /** undefined when RATE_LIMITS=off. */
  readonly rateLimits: RateLimits | undefined
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** Parses the environment once, listing every problem, and freezes the result. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const problems: string[] = []
  const site = parseSiteConfig(env, cwd, problems)
  const redisUrl = env.REDIS_URL || undefined
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push(`REDIS_URL must start with redis:// or rediss://`)
  const redisClusterNodes = parseClusterNodes(env.REDIS_CLUSTER_NODES, problems)
  if (redisUrl && redisClusterNodes)
    problems.push('Set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both')
  const redisKeyPrefix = env.REDIS_KEY_PREFIX ?? ENV_DEFAULTS.REDIS_KEY_PREFIX
  // ioredis prepends the prefix to every key: a brace in it would become every key's hash tag.
  if (redisClusterNodes && /[{}]/.test(redisKeyPrefix))
    problems.push(
      `REDIS_KEY_PREFIX must not contain "{" or "}" on a Redis Cluster ` +
        `(it would replace the keys' hash tags), got "${redisKeyPrefix}"`,
    )
  const anonymousRegistration = parseBoolean(
    'ANONYMOUS_REGISTRATION',
    env.ANONYMOUS_REGISTRATION,
    ENV_DEFAULTS.ANONYMOUS_REGISTRATION === 'true',
    problems,
  )
  const signingKeySecret = env.SIGNING_KEY_SECRET || undefined
  if (signingKeySecret !== undefined && signingKeySecret.length < 32)
    problems.push('SIGNING_KEY_SECRET must be at least 32 characters (e.g. the output of "openssl rand -base64 32")')
  const logLevel = env.LOG_LEVEL ?? ENV_DEFAULTS.LOG_LEVEL
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  const trustProxy = parseTrustProxy(env.TRUST_PROXY)
  const rateLimits = parseRateLimits(env, problems)
  const clientMetadataDevOrigins = parseOrigins(
    'CLIENT_METADATA_DEV_ORIGINS',
    env.CLIENT_METADATA_DEV_ORIGINS,
    problems,
  )
  if (problems.length > 0) throw new ConfigError(problems)
  return Object.freeze({
    ...site,
    dataDir: resolve(cwd, env.DATA_DIR ?? ENV_DEFAULTS.DATA_DIR),
    redisUrl,
    redisClusterNodes,
    redisKeyPrefix,
    anonymousRegistration,
    signingKeySecret,
    logLevel,
    trustProxy,
    clientMetadataDevOrigins,
    rateLimits,
  })
}

/** A comma-separated list of bare http(s) origins. */
function parseOrigins(name: string, value: string | undefined, problems: string[]): readonly string[] {
  const origins: string[] = []
  for (const item of (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    let url: URL | undefined
    try {
      url = new URL(item)
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== item.replace(/\/$/, ''))
      problems.push(`${name} must list bare origins like https://127.0.0.1:8443, separated by commas; got "${item}"`)
    else origins.push(url.origin)
  }
  return Object.freeze(origins)
}

/** `host:port,host:port,…` (an IPv6 host in brackets); undefined when unset. */
function parseClusterNodes(value: string | undefined, problems: string[]): Config['redisClusterNodes'] {
  if (value === undefined || value.trim() === '') return undefined
  const nodes: { host: string; port: number }[] = []
  for (const item of value.split(',').map((s) => s.trim())) {
    const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(item)
    const port = Number(match?.[2])
    if (!match || port < 1 || port > 65535)
      problems.push(
        `REDIS_CLUSTER_NODES must list host:port pairs separated ` +
          `by commas, like redis-1:6379,redis-2:6379; got "${item}"`,
      )
    else nodes.push(Object.freeze({ host: match[1]!.replace(/^\[|\]$/g, ''), port }))
  }
  return Object.freeze(nodes)
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (value === undefined || value === '') return fallback
  if (/^(1|true|yes|on)$/i.test(value)) return true
  if (/^(0|false|no|off)$/i.test(value)) return false
  problems.push(`${name} must be true or false, got "${value}"`)
  return fallback
}

/** "false" by default: X-Forwarded-* is ignored unless the operator names the proxy hops. */
function parseTrustProxy(value: string | undefined): string | boolean {
  if (value === undefined || value === '' || /^(0|false|no|off)$/i.test(value)) return false
  if (/^(1|true|yes|on)$/i.test(value)) return true
  return value
}

/** RATE_LIMITS=off disables limiting (benchmarks, trusted networks); each budget can be set alone. */
function parseRateLimits(env: NodeJS.ProcessEnv, problems: string[]): RateLimits | undefined {
  if (/^(0|false|no|off)$/i.test(env.RATE_LIMITS ?? '')) return undefined
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS }
  for (const [name, field] of Object.entries(RATE_LIMIT_VARS)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) problems.push(`${name} must be a positive integer, got "${raw}"`)
    else limits[field] = Number(raw)
  }
  return Object.freeze(limits)
}
