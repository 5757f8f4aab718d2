import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface LoadResult {
  rps: number
  p50Ms: number
  p99Ms: number
  /** Non-2xx/3xx responses and socket errors: a run with errors measured something else. */
  errors: number
}

const SCRIPT = join(import.meta.dirname, 'wrk-script.lua')

/** One bounded wrk run on the load-generator core against a loopback URL. */
export function runWrk(options: {
  origin: string
  lines: string[]
  workDir: string
  method?: 'GET' | 'POST'
  authorization?: string
  contentType?: string
  postPath?: string
  accept?: string
  /** Further headers sent with every request, as `Name: value`. */
  headers?: string[]
  seconds: number
  connections?: number
  cpu: number
}): LoadResult {
  const file = join(options.workDir, `wrk-lines-${process.pid}-${Date.now()}.txt`)
  writeFileSync(file, `${options.lines.join('\n')}\n`)
  const args = [
    '-c',
    String(options.cpu),
    'wrk',
    '-t1',
    `-c${options.connections ?? 32}`,
    `-d${options.seconds}s`,
    '--latency',
    '-s',
    SCRIPT,
    options.origin,
    '--',
    file,
    options.method ?? 'GET',
    options.authorization ?? '',
    options.contentType ?? '',
    options.postPath ?? '/',
    options.accept ?? '',
    ...(options.headers ?? []),
  ]
  const run = spawnSync('taskset', args, { encoding: 'utf8' })
  rmSync(file, { force: true })
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.stdout}`)
  return parseWrk(run.stdout)
}

export function parseWrk(out: string): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN)
  const ms = (label: string) => {
    const m = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out)
    if (!m) return NaN
    const v = Number(m[1])
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v
  }
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0
  return { rps, p50Ms: ms('50'), p99Ms: ms('99'), errors: non2xx + socketErrors }
}
