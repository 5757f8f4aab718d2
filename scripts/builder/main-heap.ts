/**
 * The heap limit of `npm run build`'s own process. A process cannot change its heap limit once
 * started, so bin/build.ts starts the build again in its place (execve(2)), with these flags,
 * unless it already has a limit. This module loads only what the limit needs: it is loaded twice.
 */
import { readdirSync } from 'node:fs'
import { buildEnv } from './build-env.ts'
import { buildTargets } from './build-targets.ts'
import { heapFlags, mainHeap } from './heap-limits.ts'

/** The flags the build's process needs; none when it runs with a heap limit already. */
export function mainHeapFlags(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string[] {
  if (execArgv.some((flag) => flag.startsWith('--max-old-space-size'))) return []
  let articles = 0
  try {
    // The targets build one after another in this process: the largest sets the limit. Every
    // entry of a content folder counts, a bound that costs one listing and no stat.
    for (const { env: targetEnv } of buildTargets(env).targets) {
      articles = Math.max(articles, readdirSync(buildEnv(targetEnv).contentDir).length)
    }
  } catch {
    // A missing folder or a bad setting: the build itself says what is wrong.
  }
  return heapFlags(mainHeap(articles))
}
