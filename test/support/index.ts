import { join } from 'node:path'
import { inject } from 'vitest'
import { tempDir } from './temp.ts'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { loadOrCreateSigningKey } from '../../auth-service/auth/signing-key.ts'
import { createTokenService } from '../../auth-service/auth/tokens.ts'
import { protectedResources } from '../../auth-service/http/endpoint.ts'
import { openStore } from '../../auth-service/store/open-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import type { PostIndex } from '../../post-index/post-index.ts'
import { loadIndexFileSync, readIndexEntries } from '../../post-index/index-file-loader.ts'
import type { IndexEntry } from '../../model/article.ts'

export const BASE_URL = 'https://research.example.org'
export { REDIS_URL } from './preflight.ts'

/** The entries of the post index in a DIST_DIR's current build. */
export function readIndexedPosts(distDir: string): IndexEntry[] {
  return readIndexEntries(join(distDir, 'current'))
}

/** The post index of a real build: 'fixture' (test/fixtures/corpus) or 'shipped' (content/). */
export function builtIndex(which: 'fixture' | 'shipped' = 'fixture'): PostIndex {
  return loadIndexFileSync(join(distOf(which), 'current'), BASE_URL)
}

export function distOf(which: 'fixture' | 'shipped'): string {
  return inject(which === 'fixture' ? 'fixtureDist' : 'shippedDist')
}

export const SEALING_SECRET = 'test-sealing-secret-of-at-least-32-characters'

/** A real sqlite store in a fresh temporary folder, removed after the test file. */
export async function tempStore(): Promise<Store> {
  return openStore({ dataDir: tempDir('store') })
}

/** Everything createApp needs, on a real store and a real build's index; `now` fakes the token clock. */
export async function testDeps(
  options: { store?: Store; corpus?: 'fixture' | 'shipped'; now?: () => number; baseUrl?: string } = {},
): Promise<AppDeps> {
  const baseUrl = options.baseUrl ?? BASE_URL
  const store = options.store ?? (await tempStore())
  const signingKey = await loadOrCreateSigningKey(store, SEALING_SECRET)
  const index = loadIndexFileSync(join(distOf(options.corpus ?? 'fixture'), 'current'), baseUrl)
  return {
    baseUrl,
    posts: () => index,
    store,
    signingKey,
    tokens: createTokenService({
      issuer: baseUrl,
      resources: protectedResources(baseUrl),
      key: signingKey,
      now: options.now,
    }),
    logError: () => {},
  }
}

export async function testApp(overrides: Partial<AppDeps> = {}) {
  return createApp({ ...(await testDeps()), ...overrides })
}
