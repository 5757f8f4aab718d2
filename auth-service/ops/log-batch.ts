import type { pino, DestinationStream } from 'pino'

/** pino's file writer (sonic-boom) taking Buffers, as `pino.destination({ contentMode: 'buffer' })` makes it. */
export type BufferSink = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(data: Buffer): boolean }

/** A log destination that holds lines for a moment and hands them to its file writer together. */
export interface BatchedLines extends DestinationStream {
  /** The file writer the lines go to. */
  readonly sink: BufferSink
  /** Hands over what is held, then has the sink write everything it holds now (before an exit). */
  flushSync(): void
  /** Hands over what is held and closes the sink once it is written. */
  end(): void
}

export interface HoldLimits {
  /** Bytes held before they are handed over at once. */
  bytes: number
  /** How long a line may wait for others: a quiet server's lines are written within this. */
  ms: number
}

/**
 * 64 KiB, some 250 request lines, or 100 ms: each hand-over is a write on libuv's thread pool
 * (a wake-up of a worker and of the loop), which a busy server paid every few requests when a
 * turn of the event loop's lines went together.
 */
export const HOLD: HoldLimits = { bytes: 64 * 1024, ms: 100 }

/** The most bytes a string of `length` UTF-16 units takes in UTF-8. */
const MAX_UTF8_PER_UNIT = 3

/**
 * Copies log lines into a buffer off the heap as they are written, and hands the buffer to
 * `sink` when it is full or `limits.ms` after its first line. Lines keep their order; none is
 * lost at a normal exit, an exit on an uncaught error or `process.exit` (the 'exit' event
 * flushes what is held), and a line is never split between two writes. The line strings die
 * young (nothing holds them across a collection), and the sink, taking Buffers, does not
 * encode or measure text.
 */
export function batchedLines(sink: BufferSink, limits: HoldLimits = HOLD): BatchedLines {
  let held = Buffer.allocUnsafe(limits.bytes)
  let used = 0
  let timer: NodeJS.Timeout | undefined
  const handOver = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (used === 0) return
    // The sink keeps the batch until its write is done: the next lines go to a new buffer.
    const batch = held.subarray(0, used)
    held = Buffer.allocUnsafe(limits.bytes)
    used = 0
    sink.write(batch)
  }
  const batched: BatchedLines = {
    sink,
    write(line: string) {
      const most = line.length * MAX_UTF8_PER_UNIT
      if (used + most > held.length) {
        handOver()
        if (most > held.length) return void sink.write(Buffer.from(line))
      }
      used += held.write(line, used)
      timer ??= setTimeout(handOver, limits.ms).unref()
    },
    flushSync() {
      handOver()
      sink.flushSync()
    },
    end() {
      handOver()
      process.off('exit', atExit)
      sink.end()
    },
  }
  const atExit = () => {
    try {
      batched.flushSync()
    } catch {
      // the sink is not open yet, or closed
    }
  }
  process.once('exit', atExit)
  return batched
}
