/**
 * Running the build and the service as the bench measures them: a command's time and the peak
 * memory of its whole process group, a build's phase timings, the service started on a build, an
 * edit timed until the service serves it, and polling for that.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { waitFor } from '../test/support/processes.ts'

const ROOT = join(import.meta.dirname, '..')
const NODE = process.execPath

export interface Measured {
  seconds: number
  peakMb: number
  /** Peak until the site was live, before the search index. */
  sitePeakMb: number
  output: string
  code: number | null
}

/** Runs a command in its own process group; samples the summed RSS of the group. */
export async function measure(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onLine?: (line: string, child: ChildProcess) => void,
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
  let peak = 0
  let sitePeak = NaN
  const sampler = setInterval(() => {
    peak = Math.max(peak, groupRssMb(child.pid!))
    if (Number.isNaN(sitePeak) && /^site live/m.test(output)) sitePeak = peak
  }, 200)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearInterval(sampler)
  return {
    seconds: (performance.now() - started) / 1000,
    peakMb: peak,
    sitePeakMb: Number.isNaN(sitePeak) ? peak : sitePeak,
    output,
    code,
  }
}

/** Resident memory of every process in a process group, in MB. */
function groupRssMb(pgid: number): number {
  let kb = 0
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) !== pgid) continue
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (rss) kb += Number(rss[1])
    } catch {
      // the process ended meanwhile
    }
  }
  return kb / 1024
}

export const phase = (output: string, name: string) =>
  Number(new RegExp(`${name} after ([\\d.]+) s`).exec(output)?.[1] ?? NaN)

/** The service on `port` of 127.0.0.1, serving the build `env` names, without rate limits. */
export function startServer(env: NodeJS.ProcessEnv, port: number, dataDir: string): ChildProcess {
  return spawn(NODE, [join(ROOT, 'auth-service', 'server.ts')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off' },
    stdio: 'ignore',
  })
}

/** The articles of a bench corpus, by slug, in name order. */
export const corpusSlugs = (corpus: string) =>
  readdirSync(corpus)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => f.slice(0, -3))

/**
 * Edits the middle article of `corpus` (a new word in a paragraph: the reading time stays), then
 * times `npm run build` until the server at `origin` serves the edit, and until the build says
 * the search index has it.
 */
export async function editUnderServer(
  corpus: string,
  env: NodeJS.ProcessEnv,
  origin: string,
): Promise<{ served: number; searchable: number; build: Measured }> {
  const slugs = corpusSlugs(corpus)
  const slug = slugs[Math.floor(slugs.length / 2)]!
  const file = join(corpus, `${slug}.md`)
  const marker = `edited${Date.now()}`
  writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\n([A-Za-z])/, `\n\n${marker} $1`))
  const started = performance.now()
  let searchable = NaN
  const build = measure(NODE, [join(ROOT, 'bin', 'build.ts')], env, (line) => {
    if (line.startsWith('search index live')) searchable = (performance.now() - started) / 1000
  })
  await until(async () => (await (await fetch(`${origin}/posts/${slug}`)).text()).includes(marker), 900_000, 50)
  const served = (performance.now() - started) / 1000
  const done = await build
  if (done.code !== 0) throw new Error(`the rebuild failed: ${done.output.slice(-500)}`)
  return { served, searchable, build: done }
}

/** Polls `probe` (a failing probe counts as not yet) with the shared waitFor. */
export function until(probe: () => Promise<boolean>, ms: number, every = 100): Promise<true> {
  return waitFor(
    async () => ((await probe().catch(() => false)) ? true : undefined),
    ms,
    'the build to be served',
    every,
  )
}
