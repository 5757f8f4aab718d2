import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { BUILD_INFO_FILE, configKey } from '../model/build-dir.ts'
import { ABOUT_FILE, scanContent, type ContentScan, type FileStat } from './builder/source-stats.ts'
import { ROOT } from './builder/build-env.ts'
import type { OpenApiCache } from './builder/openapi.ts'

/** What a build depends on, recorded in `build.json` so `npm start` can tell when it is stale. */
export interface BuildInputs {
  contentDir: string
  baseUrl: string
  fingerprint: string
}

export interface BuildInfo extends BuildInputs {
  /** The configuration (BASE_URL and CONTENT_DIR) the build was made for: `<DIST_DIR>/sites/<configKey>`. */
  configKey: string
  id: string
  builtAt: string
  articles: number
  /** When the first scheduled article is due (scripts/builder/schedule.ts): the build runs again then. */
  nextPublication?: string
}

/** What a landing build records: its inputs, configuration and id, and when it is due again. */
export function buildInfo(
  inputs: BuildInputs,
  configKey: string,
  id: string,
  articles: number,
  nextPublication: number | undefined,
): BuildInfo {
  const next = nextPublication === undefined ? {} : { nextPublication: new Date(nextPublication).toISOString() }
  return { ...inputs, configKey, id, builtAt: new Date().toISOString(), articles, ...next }
}

/**
 * Hashes names, sizes and mtimes of the articles and of the build's sources (the site, the
 * build scripts and the renderer, the lockfile): cheap to compute for ten thousand files, and
 * it changes when a file is added, edited or removed. The build passes the scan it took to find
 * what changed (scanContent): at 50,000 articles a second stat of each file costs half a second.
 */
export function computeInputs(contentDir: string, baseUrl: string, scan = scanOrNone(contentDir)): BuildInputs {
  const hash = createHash('sha256').update(baseUrl).update('\0')
  const files = new FileHasher(hash)
  for (const name of scan.names) files.add(join(contentDir, name), scan.stats.get(name))
  files.add(join(contentDir, ABOUT_FILE))
  // The bibliographies and styles articles read (scripts/builder/article-inputs.ts).
  for (const name of scan.references) files.add(join(contentDir, name))
  addSiteSources(files)
  addBuildSources(files)
  return { contentDir, baseUrl, fingerprint: hash.digest('hex') }
}

/** The content folder's scan; an empty one when there is no folder (nothing to hash). */
function scanOrNone(contentDir: string): ContentScan {
  try {
    return scanContent(contentDir)
  } catch {
    return { names: [], stats: new Map(), scannedAt: Date.now(), references: [] }
  }
}

/** What Astro builds the site's pages from (not the articles): the site, its config, the lockfile. */
export function siteSourcesFingerprint(): string {
  const hash = createHash('sha256')
  addSiteSources(new FileHasher(hash))
  return hash.digest('hex')
}

/**
 * The build's own code (scripts/, search/ and model/), which assembles the article pages and the
 * search index, and the post index's (post-index/), which lays out the API answers the build
 * writes as files.
 */
export function buildSourcesFingerprint(): string {
  const hash = createHash('sha256')
  addBuildSources(new FileHasher(hash))
  return hash.digest('hex')
}

/**
 * The code a warm builder (scripts/builder-service/daemon.ts) has loaded: the build's sources,
 * its entries, and the lockfile (the libraries). When it changes, the builder is out of date.
 */
export function builderCodeStamp(): string {
  const hash = createHash('sha256')
  const files = new FileHasher(hash)
  addBuildSources(files)
  files.walk(join(ROOT, 'bin'), (n) => n.endsWith('.ts') || n.endsWith('.js'))
  files.add(join(ROOT, 'package-lock.json'))
  return hash.digest('hex')
}

/**
 * Where the service's printed OpenAPI document is kept (scripts/builder/openapi.ts), keyed by
 * what it is printed from: BASE_URL, Node, the service's code, the model it declares, and the
 * lockfile (the libraries it builds the schemas with).
 */
export function openApiCache(distDir: string, baseUrl: string): OpenApiCache {
  const hash = createHash('sha256').update(`${baseUrl}\0${process.version}\0`)
  const files = new FileHasher(hash)
  files.walk(join(ROOT, 'auth-service'), (n) => n.endsWith('.ts'))
  files.walk(join(ROOT, 'model'), (n) => n.endsWith('.ts'))
  files.add(join(ROOT, 'package-lock.json'))
  return { dir: join(distDir, 'cache', 'openapi'), key: hash.digest('hex') }
}

function addSiteSources(files: FileHasher): void {
  files.walk(join(ROOT, 'site'), () => true)
  // The search page's browser files, copied into the site by Astro (search/site-scripts.ts).
  files.walk(join(ROOT, 'search', 'browser'), () => true)
  for (const f of ['astro.config.mjs', 'package-lock.json']) files.add(join(ROOT, f))
}

function addBuildSources(files: FileHasher): void {
  files.walk(join(ROOT, 'scripts'), (n) => n.endsWith('.ts'))
  files.walk(join(ROOT, 'model'), (n) => n.endsWith('.ts'))
  files.walk(join(ROOT, 'post-index'), (n) => n.endsWith('.ts'))
  files.walk(join(ROOT, 'search'), (n) => n.endsWith('.ts'))
}

class FileHasher {
  private readonly hash: ReturnType<typeof createHash>
  constructor(hash: ReturnType<typeof createHash>) {
    this.hash = hash
  }

  /** Hashes a file's name, size and mtime; `stat` when the caller has it. */
  add(file: string, stat?: FileStat): void {
    try {
      const s = stat ?? statSync(file)
      this.hash.update(`${file}\0${s.size}\0${s.mtimeMs}\0`)
    } catch {
      // an optional input that is absent
    }
  }

  walk(dir: string, filter: (name: string) => boolean): void {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name)
      if (e.isDirectory()) this.walk(path, filter)
      else if (filter(e.name)) this.add(path)
    }
  }
}

/** The live build of this configuration (BASE_URL and CONTENT_DIR), if any. */
export function readBuildInfo(distDir: string, baseUrl: string, contentDir: string): BuildInfo | undefined {
  try {
    return JSON.parse(
      readFileSync(join(distDir, 'sites', configKey(baseUrl, contentDir), BUILD_INFO_FILE), 'utf8'),
    ) as BuildInfo
  } catch {
    return undefined
  }
}

/** True when there is no build for this configuration, or it was made from other content or sources. */
export function isStale(distDir: string, inputs: BuildInputs): boolean {
  const info = readBuildInfo(distDir, inputs.baseUrl, inputs.contentDir)
  return (
    !info ||
    info.fingerprint !== inputs.fingerprint ||
    info.contentDir !== inputs.contentDir ||
    info.baseUrl !== inputs.baseUrl
  )
}
