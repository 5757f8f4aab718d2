/**
 * `npm run build`: builds the site into a fresh folder, indexes it with Pagefind, moves the post
 * index beside it, then swaps the `current` link in one rename so that a running server never
 * sees half a build. CONTENT_DIR, BASE_URL and DIST_DIR choose what is built and where.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as pagefind from 'pagefind'
import { ROOT, buildEnv, computeInputs, type BuildInfo } from './build-state.ts'
import { buildOpenApiDocument } from '../auth-service/openapi/document.ts'
import { writeIndexFile } from '../auth-service/articles/index-file.ts'
import type { IndexEntry } from '../model/article.ts'

const KEEP_PREVIOUS_BUILDS = 1

/** Phase durations of the last build, for the benchmark. */
export const timings = { astroMs: 0, pagefindMs: 0 }

export async function build(env: NodeJS.ProcessEnv = process.env): Promise<BuildInfo> {
  const { contentDir, baseUrl, distDir } = buildEnv(env)
  if (!existsSync(contentDir)) throw new Error(`CONTENT_DIR ${contentDir} does not exist`)
  const inputs = computeInputs(contentDir, baseUrl)
  const id = `${new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 15)}-${process.pid}`
  const buildsDir = join(distDir, 'builds')
  const buildDir = join(buildsDir, id)
  const siteDir = join(buildDir, 'site')
  mkdirSync(buildDir, { recursive: true })
  const started = Date.now()

  try {
    // The portal renders its endpoint reference from the same OpenAPI document the service serves.
    const openapiFile = join(buildDir, 'openapi.json')
    writeFileSync(openapiFile, JSON.stringify(buildOpenApiDocument(baseUrl)))
    const astro = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, CONTENT_DIR: contentDir, BASE_URL: baseUrl, ASTRO_OUT_DIR: siteDir, OPENAPI_FILE: openapiFile, ASTRO_TELEMETRY_DISABLED: '1' },
    })
    if (astro.status !== 0) throw new Error('astro build failed (see the message above)')

    const astroDone = Date.now()
    // The site emits the entries; the service's writer lays them out in its own format.
    const emitted = join(siteDir, 'post-index.json')
    const entries = (JSON.parse(readFileSync(emitted, 'utf8')) as { posts: IndexEntry[] }).posts
    rmSync(emitted)
    await writeIndexFile(buildDir, entries)
    const articles = entries.length
    await indexWithPagefind(siteDir)
    timings.astroMs = astroDone - started
    timings.pagefindMs = Date.now() - astroDone

    const info: BuildInfo = { ...inputs, id, builtAt: new Date().toISOString(), articles }
    writeFileSync(join(buildDir, 'build.json'), JSON.stringify(info, null, 2))
    swapCurrent(distDir, id)
    pruneBuilds(buildsDir, id)
    return info
  } catch (e) {
    rmSync(buildDir, { recursive: true, force: true })
    throw e
  }
}

async function indexWithPagefind(siteDir: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({})
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`)
  try {
    const added = await index.addDirectory({ path: siteDir })
    if (added.errors.length) throw new Error(`pagefind: ${added.errors.join('; ')}`)
    const written = await index.writeFiles({ outputPath: join(siteDir, 'pagefind') })
    if (written.errors.length) throw new Error(`pagefind: ${written.errors.join('; ')}`)
  } finally {
    await pagefind.close()
  }
}

/** Points `<dist>/current` at the new build with one rename: atomic for every reader. */
function swapCurrent(distDir: string, id: string): void {
  const tmp = join(distDir, `current.${id}.tmp`)
  symlinkSync(join('builds', id), tmp)
  renameSync(tmp, join(distDir, 'current'))
}

/** Keeps the live build and the one before it, which in-flight requests may still be reading. */
function pruneBuilds(buildsDir: string, liveId: string): void {
  const older = readdirSync(buildsDir)
    .filter((d) => d !== liveId)
    .sort()
    .reverse()
  for (const d of older.slice(KEEP_PREVIOUS_BUILDS)) rmSync(join(buildsDir, d), { recursive: true, force: true })
}

if (import.meta.main) {
  const started = Date.now()
  try {
    const info = await build()
    console.log(`Built ${info.articles} articles in ${((Date.now() - started) / 1000).toFixed(1)} s (site ${(timings.astroMs / 1000).toFixed(1)} s, search index ${(timings.pagefindMs / 1000).toFixed(1)} s) -> dist/builds/${info.id}`)
  } catch (e) {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  }
}
