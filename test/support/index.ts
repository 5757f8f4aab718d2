import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { loadOrCreateSigningKey } from '../../auth-service/auth/signing-key.ts'
import { createTokenService } from '../../auth-service/auth/tokens.ts'
import { endpointUrls } from '../../auth-service/routes/endpoints.ts'
import { openStore } from '../../auth-service/store/open-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { createPostIndex, type PostIndex } from '../../auth-service/articles/post-index.ts'
import { validateIndex } from '../../auth-service/articles/validate-index.ts'
import type { IndexedPost } from '../../auth-service/articles/post.ts'

export const BASE_URL = 'https://research.example.org'
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

export function readIndexedPosts(distDir: string): IndexedPost[] {
  return validateIndex(JSON.parse(readFileSync(join(distDir, 'current', 'post-index.json'), 'utf8')))
}

/** The post index of a real build: 'fixture' (test/fixtures/corpus) or 'shipped' (content/). */
export function builtIndex(which: 'fixture' | 'shipped' = 'fixture'): PostIndex {
  return createPostIndex(readIndexedPosts(distOf(which)), BASE_URL)
}

export function distOf(which: 'fixture' | 'shipped'): string {
  return inject(which === 'fixture' ? 'fixtureDist' : 'shippedDist')
}

export const SEALING_SECRET = 'test-sealing-secret-of-at-least-32-characters'

/** A real sqlite store in a fresh temporary folder. */
export async function tempStore(): Promise<Store> {
  return openStore({ dataDir: mkdtempSync(join(tmpdir(), 'lattice-store-')) })
}

/** Everything createApp needs, on a real store and a real build's index; `now` fakes the token clock. */
export async function testDeps(
  options: { store?: Store; corpus?: 'fixture' | 'shipped'; now?: () => number; baseUrl?: string } = {},
): Promise<AppDeps> {
  const baseUrl = options.baseUrl ?? BASE_URL
  const store = options.store ?? (await tempStore())
  const signingKey = await loadOrCreateSigningKey(store, SEALING_SECRET)
  const index = createPostIndex(readIndexedPosts(distOf(options.corpus ?? 'fixture')), baseUrl)
  return {
    baseUrl,
    posts: () => index,
    store,
    signingKey,
    tokens: createTokenService({ issuer: baseUrl, resource: endpointUrls(baseUrl)('getCatalog'), key: signingKey, now: options.now }),
    logError: () => {},
  }
}

export async function testApp(overrides: Partial<AppDeps> = {}) {
  return createApp({ ...(await testDeps()), ...overrides })
}
