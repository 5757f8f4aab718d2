/**
 * Running the build and the service as the bench measures them, as a user runs them: a command's
 * time and the peak memory of its whole session (`npm run build` through npm, in a session of its
 * own, every process summed), a build's phase timings, `npm start` on a build, an edit
 * made as an editor saves (a new file renamed over the old) timed until the service serves it,
 * and polling for that.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { waitFor } from '../test/support/processes.ts'
import { runningBuilders } from '../scripts/builder-service/registry.ts'
import { buildEnv } from '../scripts/builder/build-env.ts'
import { SessionPeak, sessionRss } from './session-memory.ts'

const sum = (parts: Map<string, number>) => [...parts.values()].reduce((a, b) => a + b, 0)

const ROOT = join(import.meta.dirname, '..')

export interface Measured {
  seconds: number
  peakMb: number
  /** Peak until the site was live, before the search index. */
  sitePeakMb: number
  /** What each part (npm, the build, Astro, Pagefind…) held at the peak, and its own peak. */
  breakdown: string
  output: string
  code: number | null
}

/** How often the session's memory is read: a peak lasts longer than this. */
const SAMPLE_MS = 250

/**
 * Runs a command in a session of its own (detached: setsid(2)), as a terminal would; samples the
 * summed RSS of every process in the session.
 */
export async function measure(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onLine?: (line: string, child: ChildProcess) => void,
  server?: number,
): Promise<Measured> {
  const started = performance.now()
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const take = (c: Buffer) => {
    const text = c.toString()
    output += text
    for (const line of text.split('\n')) if (line) onLine?.(line, child)
  }
  child.stdout!.on('data', take)
  child.stderr!.on('data', take)
  const peak = new SessionPeak()
  let sitePeak = NaN
  const sampler = setInterval(() => {
    // The session's id is its leader's pid: the command's.
    peak.sample(child.pid!, server)
    if (Number.isNaN(sitePeak) && /^site live/m.test(output)) sitePeak = peak.peakMb
  }, SAMPLE_MS)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearInterval(sampler)
  return {
    seconds: (performance.now() - started) / 1000,
    peakMb: peak.peakMb,
    sitePeakMb: Number.isNaN(sitePeak) ? peak.peakMb : sitePeak,
    breakdown: peak.describe(),
    output,
    code,
  }
}

/**
 * `npm run build [-- args]`, through npm as a user runs it, measured. Under a running `npm start`
 * (the session `server`), its warm builder runs the build: the builder and what it starts count.
 */
export function npmBuild(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  onLine?: (line: string, child: ChildProcess) => void,
  server?: number,
): Promise<Measured> {
  return measure('npm', ['run', 'build', ...(args.length ? ['--', ...args] : [])], env, onLine, server)
}

export const phase = (output: string, name: string) =>
  Number(new RegExp(`${name} after ([\\d.]+) s`).exec(output)?.[1] ?? NaN)

/**
 * The service on `port` of 127.0.0.1, serving the build `env` names, without rate limits, as a
 * user runs it: `npm start` (bin/start.ts, through npm) in a session of its own. `stop()` ends
 * the session; `rssMb()` sums its processes' resident memory (npm's included), but for the
 * builder it keeps warm, which `builderMb()` reads.
 */
export function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  dataDir: string,
): {
  pid: number
  stop: () => Promise<void>
  rssMb: () => number
  builderMb: () => number
  builderReady: () => Promise<true>
} {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off' },
    detached: true,
    stdio: 'ignore',
  })
  const exited = new Promise((r) => child.once('exit', r))
  return {
    pid: child.pid!,
    stop: async () => {
      // The session's process group: npm, and the service it started.
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        // already gone
      }
      await exited
    },
    rssMb: () => sum(sessionRss(child.pid!, undefined, (part) => part !== 'warm builder')),
    // The builder npm start keeps warm beside the service (scripts/builder-service/), idle.
    builderMb: () => sum(sessionRss(child.pid!, undefined, (part) => part === 'warm builder')),
    // It is ready once it has recorded itself, after reading the live build's state; with
    // WARM_BUILDER=off there is none, and each build runs in its own process.
    builderReady: async () =>
      env.WARM_BUILDER === 'off' ||
      waitFor(
        async () => (runningBuilders(buildEnv(env).distDir).length > 0 ? true : undefined),
        120_000,
        'the warm builder',
        50,
      ),
  }
}

/** The articles of a bench corpus, by slug, in name order. */
export const corpusSlugs = (corpus: string) =>
  readdirSync(corpus)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => f.slice(0, -3))

/**
 * Edits the middle article of `corpus` as an editor saves it (a new file, with one sentence
 * added or the title changed, renamed over the old), then times `npm run build`, from its start, until the server at
 * `origin` serves the edit, and until the build says the search index has it; and says whether
 * the edit changed what the list pages show.
 */
export async function editUnderServer(
  corpus: string,
  env: NodeJS.ProcessEnv,
  origin: string,
  change: 'sentence' | 'title' = 'sentence',
  server?: number,
): Promise<{ served: number; searchable: number; build: Measured; listPages: ListPages }> {
  const slugs = corpusSlugs(corpus)
  const slug = slugs[Math.floor(slugs.length / 2)]!
  const file = join(corpus, `${slug}.md`)
  const marker = `edited${Date.now()}`
  const text = readFileSync(file, 'utf8')
  let edited: string
  // The title's marker replaces an earlier run's, so that runs on one corpus keep it short.
  if (change === 'title')
    edited = text.replace(/^title: (.*)$/m, (_, t: string) => `title: ${t.replace(/ edited\d+/g, '')} ${marker}`)
  else {
    // One sentence added to the middle paragraph.
    const parts = text.split('\n\n')
    const prose = parts.flatMap((part, i) => (/^[A-Za-z]/.test(part) ? [i] : []))
    const at = prose[Math.floor(prose.length / 2)]!
    parts[at] = `${parts[at]} This sentence is ${marker}.`
    edited = parts.join('\n\n')
  }
  // The editor's new file replaces the old whole.
  writeFileSync(`${file}.saving`, edited)
  renameSync(`${file}.saving`, file)
  const started = performance.now()
  let searchable = NaN
  const build = npmBuild(
    env,
    [],
    (line) => {
      if (line.startsWith('search index live')) searchable = (performance.now() - started) / 1000
    },
    server,
  )
  await until(async () => (await (await fetch(`${origin}/posts/${slug}`)).text()).includes(marker), 900_000, 50)
  const served = (performance.now() - started) / 1000
  const done = await build
  if (done.code !== 0) throw new Error(`the rebuild failed: ${done.output.slice(-500)}`)
  return { served, searchable, build: done, listPages: listPagesBuilt(done.output) }
}

/**
 * Which list pages a build made: a title, or a sentence that moves the reading time past a
 * minute, changes what the cards show, and the pages showing the card are made again.
 */
export type ListPages = 'none' | 'cards' | 'all'
const listPagesBuilt = (output: string): ListPages =>
  /^site pages built after/m.test(output) ? 'all' : /^site pages built \(/m.test(output) ? 'cards' : 'none'

/** A row's note on what `listPagesBuilt` found. */
export const listPagesNote = (built: ListPages): string =>
  built === 'all'
    ? '; every list page built again'
    : built === 'cards'
      ? `; the edit changed the article's card, so the list pages showing it were made again`
      : ''

/** Polls `probe` (a failing probe counts as not yet) with the shared waitFor. */
export function until(probe: () => Promise<boolean>, ms: number, every = 100): Promise<true> {
  return waitFor(
    async () => ((await probe().catch(() => false)) ? true : undefined),
    ms,
    'the build to be served',
    every,
  )
}
