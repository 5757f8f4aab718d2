/**
 * The warm builder's process (scripts/builder-service/daemon.ts), started by `npm start`
 * (bin/start.ts) with the heap limit of the build's process and the server's configuration in
 * its environment, and an IPC channel: when the server's process ends, so does this one, after
 * the build it runs, if any.
 */
import './compile-cache.js'

// Stopped with its server's process group (Ctrl-C, a service manager): at once, as a build in
// its own process would be; the exit handlers remove its record and socket, and a build it ran
// lands nothing (its folder is removed by a later build, its lock taken over). Set first: a
// builder stopped while it starts removes its socket's folder too.
const { STOP_STATUS } = await import('../scripts/builder-service/protocol.ts')
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(STOP_STATUS[signal]))

const { builderCodeStamp } = await import('../scripts/build-state.ts')
const { startWarmBuilder } = await import('../scripts/builder-service/daemon.ts')
const { watchHeap } = await import('../scripts/builder/heap-watch.ts')

// Near its heap limit during a build, the build's client is told which setting raises it.
watchHeap((line) => console.error(line))
const builder = await startWarmBuilder({
  env: process.env,
  codeStamp: builderCodeStamp,
  exit: (status) => process.exit(status),
}).catch((e: unknown) => {
  // A read-only DIST_DIR, no room for a socket: said in one line, and builds run as before.
  console.error(
    `The warm builder could not start (${e instanceof Error ? e.message : e}): npm run build builds in its own process.`,
  )
  process.exit(1)
})
process.once('disconnect', () => {
  void builder.close().then(() => process.exit(0))
})
