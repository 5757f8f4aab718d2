import { Worker } from 'node:worker_threads'
import type { BuildReply, BuildRequest } from './build-worker.ts'
import type { Problem } from './problems.ts'

export type BuildOutcome =
  | { ok: true; ms: number }
  /**
   * `expected`: the content is at fault (a BuildError); otherwise the build itself broke, and `detail`
   * has its stack.
   */
  | { ok: false; ms: number; problems: Problem[]; detail?: string; expected: boolean }

export interface Builder {
  /** One build of the preview; never rejects. Calls must not overlap (see rebuild-loop.ts). */
  run(): Promise<BuildOutcome>
  close(): Promise<void>
}

const WORKER = new URL('./build-worker.ts', import.meta.url)

/**
 * Builds in one long-lived worker thread, so module loading and whatever the build keeps warm
 * are paid once. A worker that dies mid-build is reported as a failed build and replaced on
 * the next run.
 */
export function createBuilder(
  env: NodeJS.ProcessEnv,
  onProgress: (line: string) => void = () => {},
  workerUrl: URL = WORKER,
): Builder {
  let worker: Worker | undefined

  return {
    run() {
      const started = performance.now()
      const ms = () => Math.round(performance.now() - started)
      const w = (worker ??= spawn(workerUrl))
      return new Promise<BuildOutcome>((resolve) => {
        const done = (outcome: BuildOutcome) => {
          w.off('message', onMessage).off('error', onError).off('exit', onExit)
          resolve(outcome)
        }
        const lost = (message: string, detail?: string) => {
          done({
            ok: false,
            ms: ms(),
            problems: [
              { file: '', message, fix: 'See the terminal for the full error; saving any file retries the build.' },
            ],
            detail,
            expected: false,
          })
        }
        const onMessage = (reply: BuildReply) => {
          if ('progress' in reply) onProgress(reply.progress)
          else done(reply.ok ? { ok: true, ms: ms() } : { ...reply, ms: ms() })
        }
        const onError = (e: Error) => lost(`the build crashed: ${e.message}`, e.stack)
        const onExit = (code: number) => lost(`the build stopped (exit code ${code})`)
        w.on('message', onMessage).on('error', onError).on('exit', onExit)
        w.postMessage({ env } satisfies BuildRequest)
      })
    },
    async close() {
      await worker?.terminate()
      worker = undefined
    },
  }

  function spawn(url: URL): Worker {
    const w = new Worker(url)
    // A failure between builds (a stray rejection) must not take the preview down: the thread
    // is dropped and the next build starts a fresh one.
    w.on('error', () => {})
    w.on('exit', () => {
      if (worker === w) worker = undefined
    })
    return w
  }
}
