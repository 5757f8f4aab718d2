import type { pino, DestinationStream } from 'pino'

/** pino's file writer (sonic-boom), as pino.destination makes it. */
type SonicBoom = ReturnType<typeof pino.destination>

/** A log destination that holds the lines of the current turn of the event loop. */
export interface BatchedLines extends DestinationStream {
  /** The file writer the lines go to. */
  readonly sink: SonicBoom
  /** Hands over what is held, then has the sink write everything it holds now (before an exit). */
  flushSync(): void
  /** Hands over what is held and closes the sink once it is written. */
  end(): void
}

/**
 * Joins the log lines written in one turn of the event loop and hands them to `sink` as one
 * string. A busy server logs a line per request; sonic-boom, given each line, measures its
 * pending text on every write (flattening it: kilobytes copied per line), and given a batch it
 * does that once per turn. Lines keep their order, and a quiet server's line is written at the
 * end of its turn. What is held is written at exit too.
 */
export function batchedLines(sink: SonicBoom): BatchedLines {
  let lines: string[] = []
  let scheduled = false
  const handOver = () => {
    scheduled = false
    if (lines.length === 0) return
    const batch = lines.length === 1 ? lines[0]! : lines.join('')
    lines = []
    sink.write(batch)
  }
  const batched: BatchedLines = {
    sink,
    write(line: string) {
      lines.push(line)
      if (!scheduled) {
        scheduled = true
        setImmediate(handOver)
      }
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
