/** Astro's build of the site's pages other than the articles', in a process of its own. */
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ROOT } from './build-env.ts'
import { childFailure, heapFlags, type HeapLimit } from './heap-limits.ts'

export function runAstro(
  env: NodeJS.ProcessEnv,
  o: {
    baseUrl: string
    contentDir: string
    siteDir: string
    manifest: string
    openapi: string
    cacheDir: string
    /** The About page's JSON (scripts/builder/about-page.ts), when the content has one. */
    about?: string
    /** Astro's heap limit, its share of the memory plan (heap-limits.ts). */
    heap?: HeapLimit
    /** A JSON file of slugs: only the list pages showing one of them are made (list-pages.ts). */
    changedCards?: string
  },
): Promise<void> {
  // A separate process: Astro's memory is freed when it exits, and the build waits without blocking.
  // Astro keeps its intermediate files in <working directory>/.astro when the output is outside
  // the working directory: each build runs it from a folder of its own (inside the project, so
  // that those files resolve the project's packages), since builds of two configurations run at once.
  const work = join(ROOT, 'node_modules', '.cache', 'lattice-astro', basename(dirname(o.siteDir)))
  mkdirSync(work, { recursive: true })
  const child = spawn(
    process.execPath,
    [
      ...(o.heap ? heapFlags(o.heap) : []),
      join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'),
      'build',
      '--silent',
      '--root',
      ROOT,
    ],
    {
      cwd: work,
      // Its lines are passed on as they come (through this process's streams, which a warm builder
      // sends to its client), and its errors' tail kept: it says whether the heap ran out.
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...env,
        BASE_URL: o.baseUrl,
        CONTENT_DIR: o.contentDir,
        ASTRO_OUT_DIR: o.siteDir,
        ASTRO_CACHE_DIR: o.cacheDir,
        ARTICLES_MANIFEST: o.manifest,
        OPENAPI_FILE: o.openapi,
        ABOUT_FILE: o.about ?? '',
        CHANGED_CARDS_FILE: o.changedCards ?? '',
        ASTRO_TELEMETRY_DISABLED: '1',
      },
    },
  )
  child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk))
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk)
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  return new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(childFailure('astro build', signal ?? `exit ${code}`, stderr)),
    )
  }).finally(() => rmSync(work, { recursive: true, force: true }))
}
