/**
 * `npm start`'s warm builder (daemon.ts): started beside the server, in a process of its own
 * under the heap limit of the build's process (scripts/builder/main-heap.ts), so that the server
 * never carries a build's memory. One that asks for a successor (its code or its heap limit is
 * out of date) gets one at once; one that ends otherwise (killed, or out of memory) is started
 * again a few times, and then `npm run build` builds in its own process, as it does with
 * WARM_BUILDER=off.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from '../builder/build-env.ts'
import { mainHeapFlags } from '../builder/main-heap.ts'
import { RESTART_STATUS } from './protocol.ts'

/** Unexpected ends within CRASH_WINDOW_MS after which no builder is started again. */
const MAX_CRASHES = 3
const CRASH_WINDOW_MS = 10 * 60_000

/** Keeps a warm builder running for `env` (the server's configuration); the returned function stops it. */
export function keepWarmBuilder(env: NodeJS.ProcessEnv, log: (line: string) => void): () => void {
  if (env.WARM_BUILDER === 'off') return () => {}
  let child: ChildProcess | undefined
  let stopped = false
  const crashes: number[] = []
  const start = () => {
    // The limit for the articles there are now: a successor may need another.
    const flags = mainHeapFlags(env, [])
    const started = spawn(process.execPath, [...flags, join(ROOT, 'bin', 'warm-builder.js')], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    child = started
    // Neither the process nor its channel keeps the server's process running.
    started.unref()
    started.channel?.unref()
    started.once('error', () => {})
    started.once('exit', (code, signal) => {
      if (stopped) return
      if (code === RESTART_STATUS) return start()
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
  return () => {
    stopped = true
    // Its channel's end tells it to finish the build it runs, if any, and exit.
    if (child?.connected) child.disconnect()
  }
}
