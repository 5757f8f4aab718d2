/**
 * Writes lines given as bytes into a file, each followed by a newline, with writev(2): the
 * lines are not joined first. At 50,000 lines (34 MB) joining them into one string or buffer
 * cost 0.2–0.45 s, most of it the fresh memory's page faults; the writes themselves 0.02–0.07 s.
 */
import { closeSync, openSync, writevSync } from 'node:fs'

const NEWLINE = Buffer.from('\n')

export function writeLinesSync(file: string, lines: readonly Uint8Array[]): void {
  const buffers: Uint8Array[] = []
  let bytes = 0
  for (const line of lines) {
    buffers.push(line, NEWLINE)
    bytes += line.length + 1
  }
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
