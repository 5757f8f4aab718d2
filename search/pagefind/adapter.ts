/**
 * The one door to Pagefind's own files. The site search index is Pagefind's, one index per
 * shard, but the build reads its files to rank the shards as one index (index-files.ts), names
 * them to link, share and cache them, and indexes the articles through its Node API. All of it is
 * written against one Pagefind version, PAGEFIND_VERSION: the build stops, naming this file, when
 * another is installed. An upgrade is this constant, package.json, and test/search/ (see
 * search/pagefind/README.md for what to check).
 *
 * Node API: https://pagefind.app/docs/node-api/. The files' layout is the source of that
 * release's runtime (pagefind_web/src/metadata.rs, index.rs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as pagefind from 'pagefind'

/** The Pagefind release whose files this code reads and writes. */
export const PAGEFIND_VERSION = '1.6.0'

/** The installed Pagefind's package manifest. */
const INSTALLED = join(import.meta.dirname, '..', '..', 'node_modules', 'pagefind', 'package.json')

export class PagefindVersionError extends Error {
  override name = 'PagefindVersionError'
}

/** The installed Pagefind's version, from its package manifest. */
export function installedPagefindVersion(manifest = INSTALLED): string {
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
}

/** Throws, naming what to do, unless `installed` is the version this code understands. */
export function checkPagefindVersion(installed = installedPagefindVersion()): void {
  if (installed !== PAGEFIND_VERSION)
    throw new PagefindVersionError(
      `this build understands Pagefind ${PAGEFIND_VERSION}; installed is ${installed}: ` +
        'see search/pagefind/README.md to upgrade (or install the version package.json pins)',
    )
}

/** Files a browser's own Pagefind UI would load: the site has its own, so they are not kept. */
export const UI_FILES = /^pagefind-(component-ui|modular-ui|ui|highlight)\.(js|css)$/
/** The runtime, the same in every shard of one Pagefind version. */
export const RUNTIME_FILES = /^(pagefind\.js|pagefind-worker\.js|wasm\.[a-z-]+\.pagefind)$/
/** The runtime's script: a shard holds it once written whole. */
export const RUNTIME_SCRIPT = 'pagefind.js'
/**
 * A shard's folders of files named by their content's hash, which never change: the service and
 * nginx cache them for a year (auth-service/http/static-site.ts, deploy/nginx/default.conf.template).
 */
export const HASHED_FOLDERS = ['fragment', 'index', 'filter'] as const

/** A filter's file, from its hash in the metadata. */
export const filterFile = (dir: string, hash: string) => join(dir, 'filter', `${hash}.pf_filter`)
/** A chunk of the word index, from its hash in the metadata. */
export const indexChunkFile = (dir: string, hash: string) => join(dir, 'index', `${hash}.pf_index`)
/** A page's fragment (its URL, title, text and filters as JSON), from its hash in the metadata. */
export const fragmentFile = (dir: string, hash: string) => join(dir, 'fragment', `${hash}.pf_fragment`)

/** A record as Pagefind's Node API indexes it (addCustomRecord). */
export interface PagefindRecord {
  url: string
  content: string
  language: string
  meta: Record<string, string>
  filters: Record<string, string[]>
}

/** Indexes `records` with Pagefind and writes the index into `outputPath`; one index per process. */
export async function writePagefindIndex(records: AsyncIterable<PagefindRecord>, outputPath: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({})
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`)
  try {
    for await (const record of records) {
      const added = await index.addCustomRecord(record)
      if (added.errors.length) throw new Error(`pagefind: ${record.url}: ${added.errors.join('; ')}`)
    }
    const written = await index.writeFiles({ outputPath })
    if (written.errors.length) throw new Error(`pagefind: ${written.errors.join('; ')}`)
  } finally {
    await pagefind.close()
  }
}

export {
  array,
  CBOR_START,
  type CborValue,
  ENTRY_FILE,
  pagefindData,
  readFragmentJson,
  readPagefindFile,
  readShardIndex,
  type ShardIndex,
  type ShardStats,
  shardStats,
} from './index-files.ts'
