/**
 * The bodies file of a loaded index (FileBodies): a detail's markdown is one positioned read of
 * the descriptor the loader opened. Kept apart from the loader because the descriptor's lifetime
 * has rules of its own; readFully is the read that the loader's checks use too.
 */
import { close, closeSync, readSync } from 'node:fs'
import type { BodySource } from './index-state.ts'

/**
 * The bodies file of a loaded index, read on demand: post i's literal is `length` bytes at
 * `offset` (`at[6i]`, `at[6i + 1]`), its text form at `at[6i + 2]`, `at[6i + 3]` bytes long, its
 * references' JSON at `at[6i + 4]`, `at[6i + 5]` bytes long (0 for none).
 * The descriptor is opened at load and kept while the index can read through it, since a later
 * build may prune (unlink) the build folder meanwhile and an open descriptor keeps the file
 * readable. It is closed when this object is collected, never
 * before: a closed descriptor's number is reused, and a read through it would read another file.
 * So the index calls it through this object, whose private fields no detached method can reach.
 */
/** How many numbers of `at` each post has: its three spans' offsets and lengths. */
export const SPAN = 6

export class FileBodies implements BodySource {
  static readonly #closeOnCollect = new FinalizationRegistry<number>((fd) => close(fd, () => {}))
  readonly #fd: number
  readonly #file: string
  readonly #at: Float64Array

  constructor(fd: number, file: string, at: Float64Array) {
    this.#fd = fd
    this.#file = file
    this.#at = at
    FileBodies.#closeOnCollect.register(this, fd, this)
  }

  length(i: number): number {
    return this.#at[SPAN * i + 1]!
  }

  copy(i: number, target: Buffer, at: number): void {
    this.#read(SPAN * i, target, at)
  }

  textLength(i: number): number {
    return this.#at[SPAN * i + 3]!
  }

  copyText(i: number, target: Buffer, at: number): void {
    this.#read(SPAN * i + 2, target, at)
  }

  referencesLength(i: number): number {
    return this.#at[SPAN * i + 5]!
  }

  copyReferences(i: number, target: Buffer, at: number): void {
    this.#read(SPAN * i + 4, target, at)
  }

  /** Reads the span whose offset is at `k` in `#at` (its length at `k + 1`). */
  #read(k: number, target: Buffer, at: number): void {
    const offset = this.#at[k]!
    const length = this.#at[k + 1]!
    if (readFully(this.#fd, target, at, length, offset) !== length)
      throw new Error(`post index ${this.#file}: the body at ${offset} ends past the end of the file`)
  }

  /** Closes the file now: only for a reader that holds the only reference (readIndexEntries). */
  close(): void {
    FileBodies.#closeOnCollect.unregister(this)
    closeSync(this.#fd)
  }
}

/** Reads `length` bytes at `position` into `target` at `at`; fewer only at the end of the file. */
export function readFully(fd: number, target: Buffer, at: number, length: number, position: number): number {
  let done = 0
  while (done < length) {
    const n = readSync(fd, target, at + done, length - done, position + done)
    if (n === 0) break
    done += n
  }
  return done
}
