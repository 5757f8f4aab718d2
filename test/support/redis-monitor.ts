import { connect, type Socket } from 'node:net'

/**
 * Watches the commands Redis runs, through MONITOR on a plain socket.
 *
 * Not ioredis's `monitor()`: it switches to monitoring in a promise callback after MONITOR's
 * `+OK`, so when another client's command is echoed in the same read as that `+OK` (a busy
 * server, tests in parallel), ioredis fails with "Command queue state error".
 */
export interface RedisMonitor {
  /** Each command whose first key starts with `prefix`, as `[name, ...args]`. */
  readonly commands: string[][]
  /** Resolves when a command with this first argument has been seen. */
  seen(firstArg: string): Promise<void>
  close(): void
}

export async function monitorRedis(url: string, prefix: string): Promise<RedisMonitor> {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port || 6379), hostname.replace(/^\[|\]$/g, ''))
  const commands: string[][] = []
  const waiters = new Map<string, () => void>()
  let buffered = ''
  const { promise: ready, resolve: confirmed, reject: failed } = Promise.withResolvers<void>()
  socket.setEncoding('utf8')
  socket.on('error', (error) => failed(error))
  socket.on('data', (chunk: string) => {
    buffered += chunk
    let end: number
    while ((end = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      if (line === '+OK') confirmed()
      else if (line.startsWith('-')) failed(new Error(`MONITOR refused: ${line}`))
      else record(line)
    }
  })
  function record(line: string): void {
    // `+1795884260.825120 [0 127.0.0.1:55362] "exists" "key"`: the arguments are quoted.
    const args = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'))
    if (args.length < 2 || !args[1]!.startsWith(prefix)) return
    commands.push(args)
    waiters.get(args[1]!)?.()
  }
  socket.write('MONITOR\r\n')
  await ready
  return {
    commands,
    seen: (firstArg) =>
      commands.some((c) => c[1] === firstArg)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.set(firstArg, resolve)),
    close: () => socket.destroy(),
  }
}
