import { statSync } from 'node:fs'
import { articleFile } from '../model/article-bucket.ts'
import { runNow, type Steps } from './steps.ts'

/**
 * The article answers the edge serves as files. The build writes each published article's detail
 * response (GET /api/v1/posts/:slug), byte for byte what the service answers, to
 * `<build>/edge/<bucket>/<slug>.json` beside the article's other files (model/article-bucket.ts),
 * and nginx serves that file to anonymous readers
 * (deploy/nginx). nginx's validators come from the file: an ETag of its mtime and size, and its
 * mtime as Last-Modified. The service sends the same validators for the same answer, so a reader
 * revalidates alike whoever answered. The build keeps a file (and so its mtime) while its bytes
 * are unchanged and moves the mtime at least a second forward when they change, so that one
 * ETag never names two contents.
 */
export { EDGE_DIR } from '../model/article-bucket.ts'

/** Where the build writes an article's detail response inside a build folder. */
export function detailFile(buildDir: string, slug: string): string {
  return articleFile(buildDir, slug, 'json')
}

/** The validators nginx gives a static file (ngx_http_set_etag: `"<mtime hex>-<size hex>"`, whole seconds). */
export function fileValidators(mtimeMs: number, size: number): { etag: string; lastModified: string } {
  const seconds = Math.floor(mtimeMs / 1000)
  return {
    etag: `"${seconds.toString(16)}-${size.toString(16)}"`,
    lastModified: new Date(seconds * 1000).toUTCString(),
  }
}

/**
 * Each article's detail file's mtime in `buildDir`, in index order, or NaN where there is none
 * of the expected size (a build folder written without them): the service then falls back to
 * validators of its own. Read when the index is loaded, since a later build may prune the folder.
 */
export function detailFileTimes(
  buildDir: string,
  slugs: readonly string[],
  sizes: (i: number) => number,
): Float64Array {
  return runNow(detailFileTimeSteps(buildDir, slugs, sizes))
}

/** detailFileTimes, stepwise (steps.ts): a stat per file, 50,000 of them at that many articles. */
export function* detailFileTimeSteps(
  buildDir: string,
  slugs: readonly string[],
  sizes: (i: number) => number,
): Steps<Float64Array> {
  const times = new Float64Array(slugs.length).fill(Number.NaN)
  for (let i = 0; i < slugs.length; i++) {
    const stat = statSync(detailFile(buildDir, slugs[i]!), { throwIfNoEntry: false })
    if (stat?.isFile() && stat.size === sizes(i)) times[i] = stat.mtimeMs
    if (i % STEP === STEP - 1) yield
  }
  return times
}

/** Files or lines between two steps: a step is well under a millisecond. */
const STEP = 64
