/**
 * A warm builder: the process `npm start` keeps beside its server (bin/warm-builder.ts) to run
 * `npm run build` for the clients that ask (client.ts), one build at a time, with the build's
 * modules loaded and the live build's state read while it was idle (warm-previous.ts). Each
 * build is the one the client's own process would run: its arguments, its environment, this
 * checkout's code. The builder declines (and the client builds itself) when it could not run
 * that build as it is: its code changed since it started, or the build's heap limit is not the
 * one it runs under (its process's was set at its start, scripts/builder/heap-limits.ts). It
 * then ends, and `npm start` starts another that can.
 *
 * The socket is reachable by its owner only (registry.ts). A request is bounded in size and in
 * time (protocol.ts); one that is not a request is declined with the reason.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { StringDecoder } from 'node:string_decoder'
import { join } from 'node:path'
import { configKey } from '../../model/build-dir.ts'
import { runBuilds } from '../build-cli.ts'
import { buildEnv } from '../builder/build-env.ts'
import { mainHeapFlags } from '../builder/main-heap.ts'
import {
  MAX_REQUEST_BYTES,
  REQUEST_TIMEOUT_MS,
  RESTART_STATUS,
  lineReader,
  messageLine,
  parseRequest,
  type BuildRequest,
  type BuilderMessage,
} from './protocol.ts'
import { recordBuilder } from './registry.ts'
import { ContentWatch } from './content-watch.ts'
import { WarmPrevious } from './warm-previous.ts'

export interface WarmBuilderOptions {
  /** The configuration it keeps warm: the server's (BASE_URL, CONTENT_DIR, DIST_DIR). */
  env: NodeJS.ProcessEnv
  /** A fingerprint of the build's code as it is now; compared with the one at the start. */
  codeStamp: () => string
  /** Called once no build runs, when this builder should end and another start (RESTART_STATUS). */
  exit: (status: number) => void
  /** The heap flags the builder's process runs under: its own (tests give others). */
  heapFlags?: readonly string[]
}

export interface WarmBuilder {
  socket: string
  /** Stops taking builds; resolves once the running one, if any, has finished. */
  close: () => Promise<void>
}

/** The heap flags this process runs under, as mainHeapFlags writes them. */
const ownHeapFlags = () =>
  process.execArgv.filter((f) => f.startsWith('--max-old-space-size=') || f.startsWith('--max-semi-space-size='))

export async function startWarmBuilder(options: WarmBuilderOptions): Promise<WarmBuilder> {
  const { distDir, baseUrl, contentDir } = buildEnv(options.env)
  const key = configKey(baseUrl, contentDir)
  const code = options.codeStamp()
  const heap = (options.heapFlags ?? ownHeapFlags()).join(' ')
  const warm = new WarmPrevious()
  const home = mkdtempSync(join(tmpdir(), 'lattice-builder-'))
  const socket = join(home, 'builder.sock')
  // Watched from the start, so that the idle stat it keeps misses no change (content-watch.ts).
  const watch = ContentWatch.start(contentDir, home)
  const scan = watch?.scan
  let queue: Promise<void> = Promise.resolve()
  let restart = false
  let closing = false

  /** Why this builder cannot run `request`'s build as its own process would; undefined when it can. */
  const declines = (request: BuildRequest): string | undefined => {
    if (restart) return 'the warm builder is restarting'
    if (options.codeStamp() !== code) {
      restart = true
      return "the build's code changed since the warm builder started"
    }
    const wanted = mainHeapFlags(request.env, []).join(' ')
    if (wanted !== heap) {
      // The article count moved the heap limit of the build's process (heap-limits.ts).
      restart = true
      return `the build's heap limit is now ${wanted || 'none'}, the warm builder's ${heap || 'none'}`
    }
    return undefined
  }

  const run = async (client: Socket, request: BuildRequest) => {
    const send = (m: BuilderMessage) => {
      if (!client.destroyed) client.write(messageLine(m))
    }
    let started = false
    try {
      const why = closing ? 'the warm builder is stopping' : declines(request)
      if (why) {
        send({ declined: why })
        return
      }
      send({ started: true })
      started = true
      // Everything the build writes (its lines, its threads', its child processes' passed on)
      // goes to the client while it runs: builds run one at a time.
      const { stdout, stderr } = process
      const writeOut = stdout.write
      const writeErr = stderr.write
      stdout.write = relay((text) => send({ out: text }))
      stderr.write = relay((text) => send({ err: text }))
      let status = 1
      try {
        // runBuilds says a build's own failure, and returns its status.
        status = await runBuilds(request.env, request.argv, { previous: warm.take, scan })
      } finally {
        stdout.write = writeOut
        stderr.write = writeErr
      }
      send({ exit: status })
    } catch (e) {
      // The builder's own failure: before the build, the client builds itself.
      const message = e instanceof Error ? e.message : String(e)
      send(started ? { exit: 1 } : { declined: `the warm builder failed: ${message}` })
    } finally {
      client.end()
    }
  }

  const server = createServer((client) => {
    client.on('error', () => {})
    const timer = setTimeout(() => client.destroy(), REQUEST_TIMEOUT_MS)
    let asked = false
    const onLine = (line: string) => {
      if (asked) return
      asked = true
      clearTimeout(timer)
      const request = parseRequest(line)
      if (typeof request === 'string') {
        client.end(messageLine({ declined: request }))
        return
      }
      queue = queue.then(() => run(client, request)).then(afterBuild, afterBuild)
    }
    client.on(
      'data',
      lineReader(MAX_REQUEST_BYTES, onLine, () => {
        clearTimeout(timer)
        client.end(messageLine({ declined: `the request is over ${MAX_REQUEST_BYTES} bytes` }))
      }),
    )
  })

  // The next build's state is read once this one has finished, while nobody waits for it, and
  // the files changed since the last idle stat are stat'ed again.
  const prime = () => {
    try {
      warm.prime(distDir, key)
    } catch {
      // Unreadable now: the next build reads it itself.
    }
    if (watch?.stale && !closing) watch.refresh()
  }
  const afterBuild = () => {
    if (restart && !closing) options.exit(RESTART_STATUS)
    else if (!closing) setImmediate(prime)
  }

  const removeHome = () => {
    watch?.close()
    rmSync(home, { recursive: true, force: true })
  }
  process.once('exit', removeHome)
  let forget: () => void
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(socket, () => resolve())
    })
    chmodSync(socket, 0o600)
    // Found by clients once warm: a build asked for meanwhile runs in its own process. The
    // renderer's modules too, which an edit's article is rendered with (0.2 s at the first edit).
    prime()
    await import('../builder/render/index.ts')
    forget = recordBuilder(distDir, socket)
  } catch (e) {
    // No builder (a DIST_DIR it cannot write, say): nothing of it is left behind.
    server.close()
    removeHome()
    process.off('exit', removeHome)
    throw e
  }
  return {
    socket,
    close: async () => {
      closing = true
      forget()
      server.close()
      await queue
      removeHome()
    },
  }
}

/**
 * A stream's write that hands its text to `send` instead (a string or bytes, with or without a
 * callback). Bytes are decoded as they come: a child's output may split a character.
 */
function relay(send: (text: string) => void): typeof process.stdout.write {
  const decoder = new StringDecoder('utf8')
  return ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk))
    if (text) send(text)
    const done = typeof encoding === 'function' ? encoding : callback
    if (typeof done === 'function') process.nextTick(done as () => void)
    return true
  }) as typeof process.stdout.write
}
