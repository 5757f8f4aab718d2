import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { createPostIndex, type PostIndex } from '../../auth-service/articles/post-index.ts'
import { validateIndex } from '../../auth-service/articles/validate-index.ts'
import type { IndexedPost } from '../../auth-service/articles/post.ts'

export const BASE_URL = 'https://research.example.org'

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

/** An app over a real build's index, API only unless a site is asked for. */
export function testApp(overrides: Partial<AppDeps> & { corpus?: 'fixture' | 'shipped' } = {}) {
  const index = builtIndex(overrides.corpus ?? 'fixture')
  return createApp({ baseUrl: BASE_URL, posts: () => index, logError: () => {}, ...overrides })
}
