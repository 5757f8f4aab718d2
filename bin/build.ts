/**
 * `npm run build` (scripts/build.ts), started by bin/build.js. Under a running `npm start`, the
 * builder it keeps warm runs the build instead (scripts/builder-service/), unless it declines.
 * Node keeps each module's code, its TypeScript stripped and compiled, in its compile cache
 * (compile-cache.js), so a rebuild after an edit does not spend its first 0.3 s compiling the
 * build's own modules again. The cache must be on before they load, hence the dynamic imports.
 *
 * The build's heap limit is its share of the memory plan (scripts/builder/heap-limits.ts), which
 * only a process's start sets: without one, this process becomes the build with it
 * (process.execve, same pid and terminal; https://nodejs.org/api/process.html#processexecvefile-args-env),
 * or, where execve is not offered, waits for the build in a child. Near that limit it says which
 * setting raises it (scripts/builder/heap-watch.ts).
 */
import './compile-cache.js'
import { spawnSync } from 'node:child_process'
import { flushCompileCache } from 'node:module'

// Under a running `npm start`, its warm builder runs this build (scripts/builder-service/client.ts);
// not asked again by the build started under its heap limit below, nor by one given a limit.
if (!process.execArgv.some((flag) => flag.startsWith('--max-old-space-size'))) {
  const { buildByService } = await import('../scripts/builder-service/client.ts')
  const served = await buildByService(process.env, process.argv.slice(2))
  if (served !== undefined) process.exit(served)
}
const { mainHeapFlags } = await import('../scripts/builder/main-heap.ts')
const flags = mainHeapFlags(process.env, process.execArgv)
if (flags.length > 0) {
  const args = [...flags, ...process.execArgv, ...process.argv.slice(1)]
  // execve ends this process without its exit: its modules' compile cache is written first.
  flushCompileCache()
  if (typeof process.execve === 'function' && process.platform !== 'win32')
    process.execve(process.execPath, [process.execPath, ...args], process.env)
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' })
  process.exit(child.status ?? 1)
}
const { watchHeap } = await import('../scripts/builder/heap-watch.ts')
watchHeap((line) => console.error(line))
const { buildCli } = await import('../scripts/build-cli.ts')
await buildCli()
