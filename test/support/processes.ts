/**
 * Real processes for the tests and the benchmark: free ports from the OS, servers started in
 * their own process group and stopped as a whole, and waits that end as soon as a condition holds.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

/**
 * The environment of a whole site served from `dir` on `port` of 127.0.0.1, as `npm start` or
 * `npm run dev` reads it: its articles in `content`, its builds and store beside them.
 */
export const siteEnv = (dir: string, content: string, port: number): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  BASE_URL: `http://localhost:${port}`,
  CONTENT_DIR: content,
  DIST_DIR: join(dir, 'dist'),
  DATA_DIR: join(dir, 'data'),
})

/** A port the OS reports free on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** Polls `probe` until it returns a value, failing with `what` after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

/**
 * Resolves once `url` answers with a status below 500; fails at once if `child` exits first.
 * Polls often: the benchmark times start-up with it.
 */
export function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess): Promise<true> {
  return waitFor(
    async () => {
      if (child && child.exitCode !== null)
        throw new Error(`the process exited with ${child.exitCode} before ${url} answered`)
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined)
      await res?.body?.cancel()
      return res && res.status < 500 ? true : undefined
    },
    timeoutMs,
    `${url} to answer`,
    20,
  )
}

export interface Running {
  child: ChildProcess
  /** What the process wrote, when it is not going to a log file. */
  output: () => string
  /** SIGTERM to the whole process group (npm, its shell and node), then waits for the exit. */
  stop: () => Promise<number | null>
}

export interface StartOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Ready when the output matches, or when the URL answers below 500. */
  ready: RegExp | { url: string }
  timeoutMs?: number
  /** Appends the output to this file instead of keeping it (a server under load logs a lot). */
  logFile?: string
}

/** Starts a command in its own process group and resolves once it is ready; stops it if it never is. */
export async function startProcess(command: string, args: string[], opts: StartOptions): Promise<Running> {
  const log = opts.logFile === undefined ? undefined : openSync(opts.logFile, 'a')
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ['ignore', log ?? 'pipe', log ?? 'pipe'],
  })
  if (log !== undefined) closeSync(log)
  let out = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // A command that cannot start (ENOENT) emits 'error' and no 'exit'.
  const failed = new Promise<never>((_, reject) => child.once('error', reject))
  const running: Running = {
    child,
    output: () => out,
    stop: async () => {
      const group = -child.pid!
      const alive = () => {
        try {
          process.kill(group, 0)
          return true
        } catch {
          return false
        }
      }
      if (child.pid === undefined) return null
      if (alive()) process.kill(group, 'SIGTERM')
      const code = await exited
      // npm may exit before the server it started: wait for the whole group to finish.
      for (let i = 0; i < 300 && alive(); i++) await new Promise((r) => setTimeout(r, 100))
      return code
    },
  }
  const timeoutMs = opts.timeoutMs ?? 120_000
  const where = () => (opts.logFile ? `see ${opts.logFile}` : out)
  try {
    const ready =
      opts.ready instanceof RegExp
        ? outputMatches(child, opts.ready, () => out, timeoutMs)
        : waitForHttp(opts.ready.url, timeoutMs, child)
    await Promise.race([ready, failed])
  } catch (e) {
    await running.stop()
    throw new Error(`${command} ${args.join(' ')}: ${(e as Error).message}:\n${where()}`)
  }
  return running
}

function outputMatches(child: ChildProcess, ready: RegExp, out: () => string, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms`)), timeoutMs)
    const check = () => {
      if (!ready.test(out())) return
      clearTimeout(timer)
      resolve()
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before ready`))
    })
  })
}
