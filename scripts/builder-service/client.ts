/**
 * `npm run build` through a warm builder (daemon.ts) that `npm start` keeps beside the server:
 * its modules are loaded and the live build's state is read, so an edit is built without the
 * second or more a fresh process spends on both at 50,000 articles (docs/benchmark.md). The
 * build is the one this process would run: its arguments and environment are sent, and its
 * output and exit status come back. Without a warm builder, or when one declines (its code or
 * heap limit is not this build's), the caller builds in its own process.
 */
import { connect, type Socket } from 'node:net'
import { buildEnv } from '../builder/build-env.ts'
import { lineReader, messageLine, type BuilderMessage } from './protocol.ts'
import { runningBuilders } from './registry.ts'

/** The messages of a build are its output lines: far below this. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024

/** Where the build's output is written, as the builder's process wrote it. */
export interface ClientOutput {
  out: (text: string) => void
  err: (text: string) => void
}

const processOutput: ClientOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}

/**
 * The exit status of the build a warm builder ran for `env` and `argv`, or undefined when none
 * ran it (the caller builds). WARM_BUILDER=off builds in the caller's process.
 */
export async function buildByService(
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  output: ClientOutput = processOutput,
): Promise<number | undefined> {
  if (env.WARM_BUILDER === 'off') return undefined
  let distDir: string
  try {
    distDir = buildEnv(env).distDir
  } catch {
    // A bad setting: the build in this process says what is wrong.
    return undefined
  }
  for (const builder of runningBuilders(distDir)) {
    const socket = await open(builder.socket)
    if (!socket) continue
    const status = await ask(socket, env, argv, output)
    if (status !== undefined) return status
  }
  return undefined
}

function open(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => resolve(socket))
    socket.once('error', () => resolve(undefined))
  })
}

/** Sends the request and relays the answer; undefined when the builder declined or went before it started. */
function ask(
  socket: Socket,
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  output: ClientOutput,
): Promise<number | undefined> {
  return new Promise((resolve) => {
    let started = false
    let settled = false
    const settle = (status: number | undefined) => {
      if (settled) return
      settled = true
      socket.destroy()
      resolve(status)
    }
    const onLine = (line: string) => {
      let m: BuilderMessage
      try {
        m = JSON.parse(line) as BuilderMessage
      } catch {
        return
      }
      if ('started' in m) started = true
      else if ('out' in m) output.out(m.out)
      else if ('err' in m) output.err(m.err)
      else if ('exit' in m) settle(m.exit)
      else if ('declined' in m) settle(undefined)
    }
    socket.on(
      'data',
      lineReader(MAX_MESSAGE_BYTES, onLine, () => socket.destroy()),
    )
    socket.once('error', () => {})
    socket.once('close', () => {
      // A builder that ends during a build (its heap limit, a kill) leaves the build unlanded.
      if (started && !settled)
        output.err(
          'The warm builder stopped before the build finished; nothing of it landed. Run npm run build again.\n',
        )
      settle(started ? 1 : undefined)
    })
    const vars: Record<string, string> = {}
    for (const [name, value] of Object.entries(env)) if (value !== undefined) vars[name] = value
    socket.write(messageLine({ argv: [...argv], env: vars }))
  })
}
