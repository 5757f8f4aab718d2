/**
 * The layout of DIST_DIR and the moves that keep it consistent for readers and for other builds:
 *
 *   builds/<id>/      one build: site/ (site/pagefind/ a link per search shard), edge/ (a link
 *                     per article bucket), the post index, build.json, state.ndjson
 *   articles/<key>/   the article bucket folders of one configuration, `<bucket>.<build id>`,
 *                     each never written once made, shared by every build that links it
 *   search/<key>/     the search index's shards of one configuration, `<shard>.<build id>`, alike
 *   sites/<key>       link to the live build of one configuration (BASE_URL and CONTENT_DIR)
 *   current           link to the live build made last, whatever its configuration
 *   cache/            the build cache (safe to delete)
 *
 * A build writes only into its own fresh folder (and new bucket folders) and lands with renames
 * of links, so readers and concurrent builds never see a half-written build; builds of one
 * configuration take turns through a lock file.
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import { EDGE_DIR } from '../../model/article-bucket.ts'
import { BUILD_INFO_FILE } from '../../model/build-dir.ts'
import { processAlive } from '../../model/process-alive.ts'
import { setTimeout as sleep } from 'node:timers/promises'

/** Builds kept besides each configuration's live one, which in-flight requests may still read. */
const KEEP_PREVIOUS_BUILDS = 1

let seq = 0
/** A fresh build folder; the id sorts by time and names the process that made it. */
export function newBuildDir(distDir: string): { id: string; dir: string } {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 18)
  const id = `${stamp}-${process.pid}-${seq++}`
  const dir = join(distDir, 'builds', id)
  mkdirSync(dir, { recursive: true })
  return { id, dir }
}

/** A symlink's text, or undefined where there is none. */
function readLink(link: string): string | undefined {
  try {
    return readlinkSync(link)
  } catch {
    return undefined
  }
}

/** Points `link` at `target` with one rename (atomic for every reader), through `<link>.<tag>.tmp`. */
function pointLink(link: string, target: string, tag: string): void {
  const tmp = `${link}.${tag}.tmp`
  symlinkSync(target, tmp)
  renameSync(tmp, link)
}

/** The live build folder of a configuration, if any. */
export function liveBuildDir(distDir: string, key: string): string | undefined {
  const link = readLink(join(distDir, 'sites', key))
  return link === undefined ? undefined : resolve(join(distDir, 'sites'), link)
}

/** Points `sites/<key>` and then `current` at the build, each with one rename: atomic for every reader. */
export function swapLive(distDir: string, key: string, id: string): void {
  mkdirSync(join(distDir, 'sites'), { recursive: true })
  pointLink(join(distDir, 'sites', key), join('..', 'builds', id), id)
  pointLink(join(distDir, 'current'), join('builds', id), id)
}

/** What `sites/<key>` and `current` lead to now (their links' text), for restoreLive. */
export function liveLinks(distDir: string, key: string): { site?: string; current?: string } {
  const site = readLink(join(distDir, 'sites', key))
  const current = readLink(join(distDir, 'current'))
  return { ...(site && { site }), ...(current && { current }) }
}

/** Points `sites/<key>` and `current` back where liveLinks found them, each with one rename. */
export function restoreLive(distDir: string, key: string, links: { site?: string; current?: string }): void {
  const put = (link: string, target: string | undefined) =>
    target === undefined ? rmSync(link, { force: true }) : pointLink(link, target, `restore-${process.pid}`)
  put(join(distDir, 'sites', key), links.site)
  put(join(distDir, 'current'), links.current)
}

/**
 * Removes builds no longer needed: per configuration, all but the live one and the one before
 * it; folders of builds whose process died (a killed build) go too. A folder without
 * build.json whose process still runs is another build at work, and is left alone.
 */
export function pruneBuilds(distDir: string): void {
  const buildsDir = join(distDir, 'builds')
  let ids: string[]
  try {
    ids = readdirSync(buildsDir).sort().reverse()
  } catch {
    return
  }
  const live = new Set<string>()
  for (const link of [...listLinks(join(distDir, 'sites')), join(distDir, 'current')]) {
    try {
      live.add(readlinkSync(link).split('/').pop()!)
    } catch {
      // no such link
    }
  }
  const kept = new Map<string, number>()
  for (const id of ids) {
    if (live.has(id)) continue
    const dir = join(buildsDir, id)
    let key: string | undefined
    try {
      key = (JSON.parse(readFileSync(join(dir, BUILD_INFO_FILE), 'utf8')) as { configKey?: string }).configKey
    } catch {
      if (processAlive(Number(id.split('-')[2]))) continue
    }
    if (key !== undefined) {
      const n = kept.get(key) ?? 0
      if (n < KEEP_PREVIOUS_BUILDS) {
        kept.set(key, n + 1)
        continue
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
}

function listLinks(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.endsWith('.tmp') && !n.endsWith('.lock'))
      .map((n) => join(dir, n))
  } catch {
    return []
  }
}

/**
 * Takes the build lock of one configuration, waiting for a running build of it to finish. A
 * lock left by a killed build (its process is gone) is taken over.
 */
export async function acquireLock(distDir: string, key: string): Promise<() => void> {
  mkdirSync(join(distDir, 'sites'), { recursive: true })
  const file = join(distDir, 'sites', `${key}.lock`)
  for (;;) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(file, { force: true })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
    let holder: number
    let age: number
    try {
      holder = Number(readFileSync(file, 'utf8') || NaN)
      age = Date.now() - statSync(file).mtimeMs
    } catch {
      continue
    }
    // An empty file is a lock being written this instant, or left by a build killed at that
    // instant (then it is old); a dead holder's lock is stale.
    const stale = Number.isInteger(holder) ? holder > 0 && !processAlive(holder) : age > 10_000
    if (stale) {
      const moved = `${file}.${process.pid}.stale`
      try {
        renameSync(file, moved)
        unlinkSync(moved)
      } catch {
        // another build took it over first
      }
      continue
    }
    await sleep(100)
  }
}

/**
 * Hard-links every file of `from` into `to` (which it creates), except the top-level entries
 * named in `skip`; a symlink (to a shared folder) is copied as a symlink. Costs a directory entry
 * per file, not a copy; files are never written after they are linked (a changed file is a new
 * file).
 */
export function linkTree(from: string, to: string, skip: ReadonlySet<string> = new Set()): void {
  mkdirSync(to, { recursive: true })
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (skip.has(e.name)) continue
    const src = join(from, e.name)
    const dst = join(to, e.name)
    if (e.isDirectory()) linkTree(src, dst)
    // A link to a shared folder is made again: the same relative target, as every build is as deep.
    else if (e.isSymbolicLink()) symlinkSync(readlinkSync(src), dst)
    else linkSync(src, dst)
  }
}

/**
 * A build folder made from one that landed without its new search index: every file linked but
 * `landing` (the files the landing writes: the state, build.json) and site/pagefind, which is
 * written anew.
 */
export function linkBuild(from: string, to: string, landing: readonly string[]): void {
  linkTree(from, to, new Set(['site', ...landing]))
  linkTree(join(from, 'site'), join(to, 'site'), new Set(['pagefind']))
}

/**
 * Folders shared by builds, each never written once made: an area's folders of one configuration
 * are `<area>/<key>/<name>.<build id>`, linked from the build folders at `links` (a symlink per
 * folder): the article buckets from edge/, the search index's shards from site/pagefind/.
 */
const SHARED = {
  articles: [EDGE_DIR],
  search: ['site', 'pagefind'],
} as const satisfies Record<string, readonly string[]>
export type SharedArea = keyof typeof SHARED

/** Where a build makes its new shared folders, and the link to each from its folder of links. */
export interface SharedStore {
  folder(name: string): { path: string; link: string }
}

export function sharedStore(distDir: string, area: SharedArea, key: string, id: string): SharedStore {
  const dir = join(distDir, area, key)
  mkdirSync(dir, { recursive: true })
  // From builds/<id>/<links…>/ up to DIST_DIR.
  const up = Array.from({ length: SHARED[area].length + 2 }, () => '..')
  return {
    folder: (name) => ({ path: join(dir, `${name}.${id}`), link: join(...up, area, key, `${name}.${id}`) }),
  }
}

/** Points the build's link of a bucket at a bucket folder (`target`, relative to the links' folder). */
export function linkBucket(buildDir: string, bucket: string, target: string): void {
  symlinkSync(target, join(buildDir, EDGE_DIR, bucket))
}

/** Gives a build the bucket links of another: the same article files, one link per bucket. */
export function linkBuckets(from: string, to: string): void {
  mkdirSync(join(to, EDGE_DIR), { recursive: true })
  for (const bucket of readdirSync(join(from, EDGE_DIR)))
    linkBucket(to, bucket, readlinkSync(join(from, EDGE_DIR, bucket)))
}

/**
 * Removes the shared folders of a configuration that no build folder links any more (those of
 * builds pruned, or of a build killed before it landed). Run under the configuration's lock,
 * after pruneBuilds: no other build of it is making links meanwhile. Returns how many it removed.
 */
export function pruneShared(distDir: string, key: string): number {
  let removed = 0
  for (const [area, links] of Object.entries(SHARED)) {
    const dir = join(distDir, area, key)
    const linked = new Set<string>()
    for (const id of listNames(join(distDir, 'builds'))) {
      const from = join(distDir, 'builds', id, ...links)
      for (const name of listNames(from)) {
        try {
          linked.add(readlinkSync(join(from, name)).split('/').pop()!)
        } catch {
          // not a link (shards.json), or a build being removed
        }
      }
    }
    for (const name of listNames(dir))
      if (!linked.has(name)) {
        rmSync(join(dir, name), { recursive: true, force: true })
        removed++
      }
  }
  return removed
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
