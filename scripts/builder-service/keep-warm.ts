/**
 * `npm start`'s warm builder (daemon.ts): started beside the server, in a process of its own
 * under the heap limit of the build's process (scripts/builder/main-heap.ts), so that the server
 * never carries a build's memory. One that asks for a successor (its code or its heap limit is
 * out of date) gets one at once; one stopped with its server (SIGINT, SIGTERM) none; one that
 * ends otherwise (killed, or out of memory) is started again a few times, and then `npm run build`
 * builds in its own process, as it does with WARM_BUILDER=off.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from '../builder/build-env.ts'
import { mainHeapFlags } from '../builder/main-heap.ts'
import { RESTART_STATUS, STOP_STATUS } from './protocol.ts'

/** Unexpected ends within CRASH_WINDOW_MS after which no builder is started again. */
const MAX_CRASHES = 3
const CRASH_WINDOW_MS = 10 * 60_000

/**
 * Keeps a warm builder running for `env` (the server's configuration). It ends with the server's
 * process: its IPC channel's end tells it to finish the build it runs, if any, and exit.
 */
export function keepWarmBuilder(env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  if (env.WARM_BUILDER === 'off') return
  const crashes: number[] = []
  const start = () => {
    // The limit for the articles there are now: a successor may need another.
    const flags = mainHeapFlags(env, [])
    const child = spawn(process.execPath, [...flags, join(ROOT, 'bin', 'warm-builder.js')], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    // Neither the process nor its channel keeps the server's process running.
    child.unref()
    child.channel?.unref()
    child.once('error', () => {})
    child.once('exit', (code, signal) => {
      if (code === RESTART_STATUS) return start()
      // Stopped with its server's process group (Ctrl-C, a service manager): the server is stopping.
      if (code === STOP_STATUS.SIGINT || code === STOP_STATUS.SIGTERM) return
      const now = Date.now()
      crashes.push(now)
      while (crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift()
      if (crashes.length >= MAX_CRASHES) {
        log(
          `The warm builder ended ${MAX_CRASHES} times (last: ${signal ?? `exit ${code}`}): npm run build now builds in its own process.`,
        )
        return
      }
      start()
    })
  }
  start()
}
