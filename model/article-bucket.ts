/**
 * Where a build keeps an article's files: in one of ARTICLE_BUCKETS bucket folders, chosen by a
 * hash of the slug, `<build>/edge/<bucket>/<slug>.<form>` (the page `.html`, its twins, its Link
 * header `.link` and its API answer `.json`). A bucket folder is never written once made, so
 * builds share an unchanged one whole: an edit makes one new bucket, not one link per article.
 * The hash is nginx's split_clients (MurmurHash2 of the slug, split in equal parts), so that the
 * proxy finds the bucket of an address as the service does (scripts/deploy/nginx-articles.ts
 * writes its split_clients block from SPLIT_PERCENT).
 */
import { join } from 'node:path'
import type { ArticleForm } from './article-address.ts'

/** How many buckets: 250 parts of 0.40 % each (split_clients takes percentages in hundredths). */
export const ARTICLE_BUCKETS = 250
/** Each bucket's share, in hundredths of a percent, as split_clients reads it. */
export const SPLIT_PERCENT = 40

/** nginx's ngx_murmur_hash2: MurmurHash2, seed 0, little-endian words. */
export function murmurHash2(bytes: Uint8Array): number {
  const m = 0x5bd1e995
  let len = bytes.length
  let h = len >>> 0
  let i = 0
  while (len >= 4) {
    let k = (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0
    k = Math.imul(k, m)
    k ^= k >>> 24
    k = Math.imul(k, m)
    h = Math.imul(h, m) ^ k
    i += 4
    len -= 4
  }
  if (len === 3) h ^= bytes[i + 2]! << 16
  if (len >= 2) h ^= bytes[i + 1]! << 8
  if (len >= 1) h = Math.imul(h ^ bytes[i]!, m)
  h ^= h >>> 13
  h = Math.imul(h, m)
  h ^= h >>> 15
  return h >>> 0
}

/**
 * The upper bound of each bucket's hashes but the last, as split_clients computes them: each
 * part's share of 0xffffffff, truncated, summed.
 */
const BOUNDS = Array.from({ length: ARTICLE_BUCKETS - 1 }, (_, i) =>
  Number((BigInt(i + 1) * ((BigInt(SPLIT_PERCENT) * 0xffffffffn) / 10000n)) & 0xffffffffn),
)

/** A bucket's name: its number, three digits. */
export const bucketName = (n: number) => String(n).padStart(3, '0')

const encoder = new TextEncoder()

/** The bucket of an article's files. */
export function articleBucket(slug: string): string {
  const hash = murmurHash2(encoder.encode(slug))
  let lo = 0
  let hi = BOUNDS.length
  // The first bound above the hash (the last bucket has none).
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (hash < BOUNDS[mid]!) hi = mid
    else lo = mid + 1
  }
  return bucketName(lo)
}

/** The folder of a build that holds the bucket links (what nginx's EDGE_ROOT names). */
export const EDGE_DIR = 'edge'

/** An article's files: its forms, its Link header (`link`) and its API answer (`json`). */
export type ArticleFileForm = ArticleForm | 'link' | 'json'

/** The name of an article's file in its bucket. */
export function articleFileName(slug: string, form: ArticleFileForm): string {
  return `${slug}.${form === 'page' ? 'html' : form}`
}

/** An article's file from the folder of the bucket links: `<bucket>/<slug>.<form>`. */
export function bucketPath(slug: string, form: ArticleFileForm): string {
  return `${articleBucket(slug)}/${articleFileName(slug, form)}`
}

/** An article's file in a build folder (through its bucket's link). */
export function articleFile(buildDir: string, slug: string, form: ArticleFileForm): string {
  return join(buildDir, EDGE_DIR, bucketPath(slug, form))
}
