import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

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

export interface Running {
  child: ChildProcess
  output: () => string
  /** SIGTERM to the whole process group (npm, its shell and node), then waits for the exit. */
  stop: () => Promise<number | null>
}

/** Starts a command in its own process group and resolves once `ready` appears in its output. */
export async function startProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<Running> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
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
      if (alive()) process.kill(group, 'SIGTERM')
      const code = await exited
      // npm may exit before the server it started: wait for the whole group to finish.
      for (let i = 0; i < 300 && alive(); i++) await new Promise((r) => setTimeout(r, 100))
      return code
    },
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${opts.timeoutMs ?? 120_000} ms:\n${out}`)), opts.timeoutMs ?? 120_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (opts.ready.test(out)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before ready:\n${out}`))
    })
  })
  return running
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
