/**
 * A full garbage collection of this process, now: before a step whose memory the plan counts on
 * this process having given back what it no longer uses (memory-plan.ts). After the articles are
 * rendered, this process holds hundreds of megabytes of dead rendered text at 50,000 articles,
 * which V8 would collect only seconds later, by when Astro's process, started meanwhile, is at
 * its peak beside it (2.1 GB for the whole tree under a 2 GB plan). V8 offers the collection as
 * `gc()` once its `--expose-gc` flag is set (https://nodejs.org/api/v8.html#v8setflagsfromstringflags).
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let gc: (() => void) | undefined

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as () => void
  }
  gc()
}
