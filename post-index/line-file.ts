/**
 * Files of lines (the post index's entries, the build's state.ndjson) read and written as bytes:
 * a line is a range of the file's bytes, never the file decoded whole, and lines are written with
 * writev(2), never joined first. At 50,000 lines (34 MB) decoding the file whole cost 0.25 s and
 * joining the lines 0.2–0.45 s, most of it the fresh memory's page faults; the writes themselves
 * 0.02–0.07 s.
 */
import { closeSync, openSync, writevSync } from 'node:fs'

const NEWLINE = 0x0a
const NEWLINE_BYTES = Buffer.from([NEWLINE])

/** The end of the line that begins at `start` (its newline, or the file's end). */
export function lineEnd(bytes: Buffer, start: number): number {
  const at = bytes.indexOf(NEWLINE, start)
  return at < 0 ? bytes.length : at
}

/**
 * Each non-empty line of `bytes` from `start` on, as [start, end) without its newline, until
 * `visit` returns false; false then, else true.
 */
export function eachLine(bytes: Buffer, start: number, visit: (start: number, end: number) => unknown): boolean {
  for (let at = start; at < bytes.length; ) {
    const end = lineEnd(bytes, at)
    if (end > at && visit(at, end) === false) return false
    at = end + 1
  }
  return true
}

/** Writes `lines` into `file`, each followed by a newline. */
export function writeLinesSync(file: string, lines: readonly Uint8Array[]): void {
  const buffers: Uint8Array[] = []
  for (const line of lines) buffers.push(line, NEWLINE_BYTES)
  writeBytesSync(file, buffers)
}

/** Writes `buffers` into `file`, one after another. */
export function writeBytesSync(file: string, buffers: readonly Uint8Array[]): void {
  let bytes = 0
  for (const b of buffers) bytes += b.length
  const fd = openSync(file, 'w')
  try {
    // libuv writes them all, IOV_MAX buffers per call, and goes on after a short write
    // (uv__fs_write_all); it stops short only on an error, thrown here.
    const written = writevSync(fd, buffers)
    if (written !== bytes) throw new Error(`${file}: wrote ${written} of ${bytes} bytes`)
  } finally {
    closeSync(fd)
  }
}

/** The first chunk's size; each next one doubles, up to LAST_CHUNK. */
const FIRST_CHUNK = 64 << 10
const LAST_CHUNK = 1 << 20

/**
 * Lines gathered while other work allocates, for one write at the end, packed into chunks of
 * their own. A line kept as a Buffer of its own (`Buffer.from` of a short string) is a view of
 * Node's shared allocation pool, a 64 KB slab since Node 24 shared by every short Buffer made
 * meanwhile: held until the write, each line held its slab, and with it whatever was made beside
 * it. The post index's lines held every body written between them: 2.3 GB at 50,000 articles.
 */
export class LineChunks {
  private readonly parts: Uint8Array[] = []
  private chunk: Buffer = Buffer.alloc(0)
  /** The chunk's bytes not yet in `parts` are [start, used). */
  private start = 0
  private used = 0
  /** Lines ended so far. */
  count = 0

  /** Appends a copy of the bytes, or a string's UTF-8, to the line under way. */
  add(part: Uint8Array | string): void {
    const length = typeof part === 'string' ? Buffer.byteLength(part) : part.length
    if (this.chunk.length - this.used < length) this.next(length)
    if (typeof part === 'string') this.used += this.chunk.write(part, this.used)
    else {
      this.chunk.set(part, this.used)
      this.used += length
    }
  }

  /**
   * Appends bytes held anyway (a view of a file read whole) to the line under way, uncopied:
   * written from where they are.
   */
  addHeld(bytes: Uint8Array): void {
    this.seal()
    this.parts.push(bytes)
  }

  /** Ends the line under way. */
  end(): void {
    this.add(NEWLINE_BYTES)
    this.count++
  }

  /** The bytes so far, every line ended by its newline. */
  buffers(): Uint8Array[] {
    this.seal()
    return [...this.parts]
  }

  private seal(): void {
    if (this.used > this.start) this.parts.push(this.chunk.subarray(this.start, this.used))
    this.start = this.used
  }

  private next(room: number): void {
    this.seal()
    const size = Math.min(LAST_CHUNK, Math.max(FIRST_CHUNK, this.chunk.length * 2))
    // Outside the pool: a chunk is held by nothing but these lines.
    this.chunk = Buffer.allocUnsafeSlow(Math.max(size, room))
    this.start = this.used = 0
  }
}
