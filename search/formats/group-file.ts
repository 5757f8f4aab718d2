/**
 * A score group's files (search/build/groups.ts merges the words into them), in the binary format the
 * browser reads in place (search/browser/search-group-file.js, which describes it): per
 * word, its bytes and, per shard listing it, its scores as unsigned LEB128 varints. Binary
 * rather than JSON because the browser parsed JSON for every word of every file a query fetched:
 * at 50,000 articles a two-letter prefix fetched 14 MB of it, and the parse and its garbage were
 * most of the query's time.
 *
 * The words are cut into files of about GROUP_FILE_BYTES packed, and every BLOCK_FILES of those
 * are also packed together as one block file: a term costs one small file per group, and a
 * prefix spanning several files costs their blocks instead, since the browser pays far more
 * per request than per byte (at 50,000 articles, 48 files of 64 KB took Chromium 2.5 times as
 * long as 12 of 256 KB). Each file is named by a hash of its bytes.
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { GROUP_SIGNATURE } from '../browser/search-group-file.js'

/** The packed size a group file is cut at. */
export const GROUP_FILE_BYTES = 64 * 1024
/** Small files per block: a block holds the words of that many consecutive small files. */
export const BLOCK_FILES = 4
/** zlib's level: 4 packs a group in a quarter of the time of the default, 11% larger. */
const LEVEL = 4

/**
 * A group's files, each `<name>.pf_group`: the small ones' first words, in order, and names; and
 * the blocks' names, block `i` holding small files `i * blockFiles` onwards (the browser reads
 * the number here, so that a page never pairs blocks with files another way).
 */
export interface GroupFiles {
  first: string[]
  files: string[]
  blocks: string[]
  blockFiles: number
}

export const SIGNATURE = Buffer.from(GROUP_SIGNATURE)

/** Bytes written one varint at a time, in a buffer that grows. */
class Bytes {
  private buffer = Buffer.allocUnsafe(256)
  length = 0

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`search scores: ${value} is not a count or score`)
    this.room(10)
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80
      value = Math.floor(value / 0x80)
    }
    this.buffer[this.length++] = value
  }

  bytes(data: Uint8Array): void {
    this.room(data.length)
    this.buffer.set(data, this.length)
    this.length += data.length
  }

  take(): Buffer {
    return this.buffer.subarray(0, this.length)
  }

  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n))
    this.buffer.copy(grown, 0, 0, this.length)
    this.buffer = grown
  }
}

function gcd(a: number, b: number): number {
  if (!Number.isSafeInteger(b) || b < 0) throw new Error(`search scores: ${b} is not a count or score`)
  while (b) [a, b] = [b, a % b]
  return a
}

/**
 * One word's entry: `lists` per shard listing it, its position in the group's shards and its
 * score list (page difference, weight, fields, …).
 */
export function groupEntry(word: string, lists: ReadonlyArray<readonly [number, readonly number[]]>): Buffer {
  const body = new Bytes()
  body.varint(lists.length)
  for (const [shard, list] of lists) {
    if (list.length % 3 !== 0) throw new Error(`search scores of "${word}": a list is not of triples`)
    // The unit: the greatest common divisor of the weights (Pagefind's unit for plain text, 24,
    // in all but a few lists).
    let unit = 0
    let fields = 0
    for (let i = 0; i < list.length; i += 3) {
      unit = gcd(unit, list[i + 1]!)
      fields |= list[i + 2]!
    }
    const scores = new Bytes()
    for (let i = 0; i < list.length; i += 3) {
      const weight = list[i + 1]!
      scores.varint(list[i]! * 2 + (weight === unit ? 0 : 1))
      if (weight !== unit) scores.varint(weight / unit)
      if (fields) scores.varint(list[i + 2]!)
    }
    body.varint(shard)
    body.varint(list.length / 3)
    body.varint(unit * 2 + (fields ? 1 : 0))
    body.varint(scores.length)
    body.bytes(scores.take())
  }
  const wordBytes = Buffer.from(word)
  const out = new Bytes()
  out.varint(wordBytes.length)
  out.bytes(wordBytes)
  out.varint(body.length)
  out.bytes(body.take())
  return Buffer.from(out.take())
}

/**
 * Writes entries into files of at most `target` bytes packed (unless one entry alone is larger),
 * and their blocks.
 */
export class GroupWriter {
  private readonly files: GroupFiles = { first: [], files: [], blocks: [], blockFiles: BLOCK_FILES }
  private readonly dir: string
  private readonly target: number
  private words: string[] = []
  private entries: Buffer[] = []
  private size = 0
  /** Unpacked bytes per packed byte, as the last file packed: where to try the next cut. */
  private ratio = 3
  /** The entries of the small files of the block being filled. */
  private block: Buffer[] = []
  constructor(dir: string, target: number) {
    this.dir = dir
    this.target = target
  }

  add(word: string, entry: Buffer): void {
    this.words.push(word)
    this.entries.push(entry)
    this.size += entry.length
    if (this.size >= this.target * this.ratio) this.cut()
  }

  end(): GroupFiles {
    while (this.entries.length > 0) this.cut()
    if (this.block.length > 0) this.writeBlock()
    return this.files
  }

  /**
   * Writes the pending entries, or as many of the first as pack within the target: the rest
   * begin the next file.
   */
  private cut(): void {
    let n = this.entries.length
    for (;;) {
      const entries = Buffer.concat(this.entries.slice(0, n))
      const packed = gzipSync(Buffer.concat([SIGNATURE, entries]), { level: LEVEL })
      if (packed.length <= this.target || n === 1) {
        this.ratio = (SIGNATURE.length + entries.length) / packed.length
        this.files.first.push(this.words[0]!)
        this.files.files.push(this.write(packed))
        this.block.push(entries)
        if (this.block.length === BLOCK_FILES) this.writeBlock()
        break
      }
      n = Math.max(1, Math.min(n - 1, Math.floor(n * (this.target / packed.length) * 0.97)))
    }
    this.words = this.words.slice(n)
    this.entries = this.entries.slice(n)
    this.size = this.entries.reduce((sum, e) => sum + e.length, 0)
  }

  private writeBlock(): void {
    this.files.blocks.push(this.write(gzipSync(Buffer.concat([SIGNATURE, ...this.block]), { level: LEVEL })))
    this.block = []
  }

  /** Writes a file named by its bytes; returns its name. */
  private write(packed: Buffer): string {
    const name = createHash('sha256').update(packed).digest('hex').slice(0, 20)
    writeFileSync(join(this.dir, `${name}.pf_group`), packed)
    return name
  }
}
