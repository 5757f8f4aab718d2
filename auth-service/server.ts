import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { RequestListener } from 'node:http'
import { createApp } from './app.ts'
import { loadConfig, type Config } from './config.ts'
import { ConfigError } from '../model/site-config.ts'
import { keepYoungGenerationSmall, loadIndexFile } from '../post-index/index-file-loader.ts'
import { indexSource, watchIndexFile } from '../post-index/index-file-watcher.ts'
import type { PostIndex } from '../post-index/post-index.ts'
import { loadSealingSecret } from './auth/sealing-secret.ts'
import { loadOrCreateSigningKey } from './auth/signing-key.ts'
import { createTokenService } from './auth/tokens.ts'
import { createLogger, flushLogs } from './ops/logger.ts'
import { forPerson, servingLine } from './ops/serving-line.ts'
import { SERVER_INFO } from './routes/documents.ts'
import { createMetrics } from './ops/metrics.ts'
import { openStore } from './store/open-store.ts'
import { protectedResources } from './http/endpoint.ts'
import { createLimitedServer } from './http/server-limits.ts'
import { SERVER_TIMEOUTS } from './defaults.ts'
import { configBuildLink, findBuildFor } from '../model/build-dir.ts'
import { exitOnListenError } from './http/listen-error.ts'
import { recordServing } from '../model/serving-record.ts'

/** How the live preview (bin/dev.ts) runs this same service. */
export interface MainOptions {
  /** What the server listens with: the app, or something in front of it (live reload). */
  wrap?: (app: RequestListener) => RequestListener
  /** Start even before a build exists: the API answers 503 until an index loads. */
  withoutBuild?: boolean
  /** Poll for new builds (default); the preview calls reloadIndex itself, when it suits it. */
  watchIndex?: boolean
  /** Say where the site is once listening (default); the preview says it in its own words. */
  announce?: boolean
}

export interface RunningService {
  origin: string
  /** Loads the index of the build just swapped in now, instead of at the next poll. */
  reloadIndex: () => Promise<void>
}

/**
 * Starts the one origin: loads the post index, opens the store, serves site and API, reloads
 * the index when a build lands, and drains gracefully on SIGTERM. The only reader of the env.
 */
export async function main(env: NodeJS.ProcessEnv = process.env, options: MainOptions = {}): Promise<RunningService> {
  let config: Config
  try {
    config = loadConfig(env)
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message)
      process.exit(1)
    }
    throw e
  }
  const logger = createLogger(config.logLevel)
  // Only a build made for this BASE_URL: another's pages carry its absolute URLs.
  // The preview may start before its first build: it serves the link that build will make.
  const current =
    findBuildFor(config.distDir, config.baseUrl, config.contentDir) ??
    (options.withoutBuild ? configBuildLink(config.distDir, config.baseUrl, config.contentDir) : undefined)
  if (!current) {
    logger.fatal(
      { distDir: config.distDir, baseUrl: config.baseUrl },
      `no build for BASE_URL ${config.baseUrl} in ${config.distDir}: run "npm run build" with the same BASE_URL`,
    )
    flushLogs(logger)
    process.exit(1)
  }

  keepYoungGenerationSmall()
  let index: PostIndex | undefined
  // Where the served index came from, read before loading it: a swap meanwhile is then seen.
  const served = indexSource(current)
  try {
    index = await loadIndexFile(current, config.baseUrl)
  } catch (err) {
    if (!options.withoutBuild) {
      logger.fatal({ err, buildDir: current }, 'cannot load the post index: run "npm run build" first')
      flushLogs(logger)
      process.exit(1)
    }
  }
  const reloadIndex = async () => {
    index = await loadIndexFile(current, config.baseUrl)
  }
  const stopWatching =
    options.watchIndex === false
      ? () => {}
      : watchIndexFile(current, config.baseUrl, {
          served: index ? served : undefined,
          onLoad(next) {
            index = next
            logger.info({ articles: next.size, build: next.build }, 'post index reloaded')
          },
          onError: (err) => logger.error({ err }, 'post index reload failed; still serving the previous one'),
          onRelabel(build) {
            // The same index, linked into a later swap of its build: it now answers for that build.
            if (index && index.build !== build) index = { ...index, build }
          },
        })

  const store = await openStore({
    redisUrl: config.redisUrl,
    redisClusterNodes: config.redisClusterNodes,
    redisKeyPrefix: config.redisKeyPrefix,
    dataDir: config.dataDir,
  })
  const signingKey = await loadOrCreateSigningKey(store, loadSealingSecret(config.signingKeySecret, config.dataDir))
  const tokens = createTokenService({
    issuer: config.baseUrl,
    resources: protectedResources(config.baseUrl),
    key: signingKey,
  })
  let accepting = true

  const app = createApp({
    baseUrl: config.baseUrl,
    posts: () => index,
    store,
    signingKey,
    tokens,
    anonymousRegistration: config.anonymousRegistration,
    clientMetadata: { devOrigins: config.clientMetadataDevOrigins },
    siteDir: join(current, 'site'),
    logger,
    metrics: createMetrics(),
    accepting: () => accepting,
    trustProxy: config.trustProxy,
    rateLimits: config.rateLimits,
    logError: (err, context) => logger.error({ err, ...context }, 'request failed'),
  })
  const server = createLimitedServer(options.wrap ? options.wrap(app) : app)
  server.listen(config.port, config.host)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs
  const { port } = server.address() as AddressInfo
  // `npm run build` without settings builds for the running server (scripts/builder/build-targets.ts).
  const forgetServing = recordServing(config.distDir, { port, baseUrl: config.baseUrl, contentDir: config.contentDir })
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`
  const plain = forPerson(env, process.stdout)
  if (plain && options.announce !== false)
    process.stdout.write(`${servingLine(SERVER_INFO.title, config.baseUrl, config)}\n`)
  logger[plain ? 'debug' : 'info'](
    {
      host: config.host,
      port,
      baseUrl: config.baseUrl,
      articles: index?.size,
      store: config.redisClusterNodes ? 'redis-cluster' : config.redisUrl ? 'redis' : 'sqlite',
      kid: signingKey.kid,
    },
    `listening on http://${config.host}:${port}`,
  )

  const shutdown = (signal: string) => {
    if (!accepting) return
    accepting = false
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    forgetServing()
    stopWatching()
    // Stop accepting; requests already received finish, and keep-alive sockets close as soon
    // as they are idle (responses now carry Connection: close).
    const sweep = setInterval(() => server.closeIdleConnections(), 100)
    server.close(() => {
      clearInterval(sweep)
      store.close().finally(() => {
        logger.info('stopped')
        flushLogs(logger)
        process.exit(0)
      })
    })
    server.closeIdleConnections()
    setTimeout(() => {
      logger.warn('drain timeout: exiting with requests still open')
      flushLogs(logger)
      process.exit(1)
    }, SERVER_TIMEOUTS.drainTimeoutMs).unref()
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
  return { origin, reloadIndex }
}

if (import.meta.main) await main().catch(exitOnListenError)
