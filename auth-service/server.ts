import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { createApp } from './app.ts'
import { loadConfig, ConfigError } from './config.ts'
import { loadIndexFile, watchIndexFile } from './articles/index-file.ts'
import type { PostIndex } from './articles/post-index.ts'
import { loadSealingSecret } from './auth/sealing-secret.ts'
import { loadOrCreateSigningKey } from './auth/signing-key.ts'
import { createTokenService } from './auth/tokens.ts'
import { openStore } from './store/open-store.ts'
import { endpoints } from './routes/well-known.ts'

/** Starts the one origin: loads the post index, serves site and API, reloads on rebuild, stops on SIGTERM. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config
  try {
    config = loadConfig(env)
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message)
      process.exit(1)
    }
    throw e
  }
  const current = join(config.distDir, 'current')
  const indexFile = join(current, 'post-index.json')

  let index: PostIndex | undefined
  try {
    index = await loadIndexFile(indexFile, config.baseUrl)
  } catch (e) {
    console.error(`Cannot load the post index at ${indexFile}: run "npm run build" first.`, e)
    process.exit(1)
  }
  const log = (msg: string) => console.log(JSON.stringify({ time: new Date().toISOString(), msg }))
  const stopWatching = watchIndexFile(
    indexFile,
    config.baseUrl,
    (next) => {
      index = next
      log(`post index reloaded: ${next.size} articles`)
    },
    (err) => console.error('post index reload failed; still serving the previous one', err),
  )

  const store = await openStore({ redisUrl: config.redisUrl, dataDir: config.dataDir })
  const signingKey = await loadOrCreateSigningKey(store, loadSealingSecret(config.signingKeySecret, config.dataDir))
  const tokens = createTokenService({ issuer: config.baseUrl, resource: endpoints(config.baseUrl).resource, key: signingKey })

  const app = createApp({
    baseUrl: config.baseUrl,
    posts: () => index,
    store,
    signingKey,
    tokens,
    anonymousRegistration: config.anonymousRegistration,
    siteDir: join(current, 'site'),
  })
  const server = app.listen(config.port, config.host)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  log(`listening on http://${config.host}:${port} (public origin ${config.baseUrl}, ${index!.size} articles)`)

  const shutdown = () => {
    stopWatching()
    log('shutting down: finishing in-flight requests')
    server.close(() => {
      store.close().finally(() => {
        log('stopped')
        process.exit(0)
      })
    })
    server.closeIdleConnections()
    setTimeout(() => process.exit(0), 10_000).unref()
  }
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
}

if (import.meta.main) await main()
