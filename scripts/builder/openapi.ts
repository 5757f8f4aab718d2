/**
 * The service's OpenAPI document, which the developer portal and /auth.md are built from. The
 * service prints it in a process of its own (auth-service/openapi/print.ts), so that the build
 * imports nothing of the service; it starts early and runs while the articles are read.
 *
 * The printed document is kept in the build cache under a key of what it is printed from (the
 * service's sources, BASE_URL, Node's version): a rebuild after an article edit starts no
 * process for it. That process cost 1.6 s of CPU beside an edit build of 50,000 articles, on
 * the core the build shares with a running server (docs/benchmark.md).
 */
import { execFile } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './build-env.ts'

const PRINT = join(ROOT, 'auth-service', 'openapi', 'print.ts')

/** Where the printed document is kept, and its key (a hex digest of what it is printed from). */
export interface OpenApiCache {
  dir: string
  key: string
}

/** The document as JSON text, for `baseUrl`. A failure rejects with what the service printed. */
export function serviceOpenApi(baseUrl: string, cache?: OpenApiCache): Promise<string> {
  const kept = cache && readKept(cache)
  if (kept !== undefined) return Promise.resolve(kept)
  const printed = new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [PRINT, baseUrl], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`The service could not print its OpenAPI document: ${stderr.trim() || err.message}`))
      else {
        if (cache) keep(cache, stdout)
        resolve(stdout)
      }
    })
  })
  // A build that fails before it needs the document must not end on this promise's rejection.
  printed.catch(() => {})
  return printed
}

const fileOf = (cache: OpenApiCache) => join(cache.dir, `${cache.key}.json`)

function readKept(cache: OpenApiCache): string | undefined {
  try {
    return readFileSync(fileOf(cache), 'utf8')
  } catch {
    return undefined
  }
}

/** Written whole (a new file renamed over), and alone: documents of other keys are removed. */
function keep(cache: OpenApiCache, text: string): void {
  try {
    mkdirSync(cache.dir, { recursive: true })
    const file = fileOf(cache)
    writeFileSync(`${file}.${process.pid}.tmp`, text)
    renameSync(`${file}.${process.pid}.tmp`, file)
    for (const name of readdirSync(cache.dir))
      if (name !== `${cache.key}.json`) rmSync(join(cache.dir, name), { force: true })
  } catch {
    // The cache is only a saving: the next build prints the document again.
  }
}
