/**
 * Runs `build()` for the preview in a worker thread: the server stays responsive while a build
 * runs, and a build that crashes (even one that calls process.exit) ends only this thread.
 * Problems cross back as plain data: an error's own fields do not survive postMessage.
 */
import { parentPort } from 'node:worker_threads'
import { build } from '../../scripts/build.ts'
import { renderMarkdown } from '../../scripts/builder/render/index.ts'
import { toProblems } from './problems.ts'

export interface BuildRequest {
  env: NodeJS.ProcessEnv
}
/** Progress lines while a build runs (a part of it has landed), then one final reply. */
export type BuildReply =
  | { progress: string }
  | { ok: true }
  | { ok: false; problems: ReturnType<typeof toProblems>; detail: string | undefined; expected: boolean }

/**
 * A rebuild of a few articles renders them in this thread. Rendering a sample once, while the
 * writer reads the first build, loads the highlighter and KaTeX before the first save needs them.
 */
const WARM_UP = '# Warm-up\n\nInline $x^2$ math.\n\n```ts\nconst x: number = 1\n```\n'
let warmed = false

parentPort!.on('message', async ({ env }: BuildRequest) => {
  let reply: BuildReply
  try {
    // The preview skips the search index, which nothing in a writer's loop reads and which
    // costs as much as the rest of an incremental build; an edited page lands before the lists.
    await build(env, {
      search: false,
      landEarly: true,
      log: (line) => parentPort!.postMessage({ progress: line } satisfies BuildReply),
    })
    reply = { ok: true }
  } catch (e) {
    const expected = Array.isArray((e as { problems?: unknown } | null)?.problems)
    reply = { ok: false, problems: toProblems(e), detail: e instanceof Error ? e.stack : undefined, expected }
  }
  parentPort!.postMessage(reply)
  if (!warmed) {
    warmed = true
    await renderMarkdown(WARM_UP).catch(() => {})
  }
})
