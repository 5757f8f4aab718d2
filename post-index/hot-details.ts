/**
 * The detail responses read most recently, kept laid out, up to a total size. A detail is otherwise laid
 * out on each read from the bodies file (a positioned read and a fresh buffer of ~20 KB): the OS
 * page cache keeps that cheap for every article, and this keeps it free for the hot ones, so the
 * service's memory is bounded by this budget, not by the corpus (docs/operations.md).
 */
import type { PreparedBody } from './post-index.ts'

/** The bytes of detail responses kept per loaded index. */
export const HOT_DETAIL_BYTES = 128 << 20

/** A least-recently-read cache of prepared details by article position, bounded in bytes. */
export class HotDetails {
  readonly #kept = new Map<number, PreparedBody>()
  readonly #limit: number
  #bytes = 0

  constructor(limit = HOT_DETAIL_BYTES) {
    this.#limit = limit
  }

  get(i: number): PreparedBody | undefined {
    const found = this.#kept.get(i)
    if (found) {
      // Refresh its place: the Map's order is the eviction order.
      this.#kept.delete(i)
      this.#kept.set(i, found)
    }
    return found
  }

  /** Keeps `prepared` (unless it alone exceeds the budget), dropping the least recently read first. */
  set(i: number, prepared: PreparedBody): void {
    const size = prepared.body.length
    if (size > this.#limit) return
    this.#bytes += size
    this.#kept.set(i, prepared)
    for (const [oldest, old] of this.#kept) {
      if (this.#bytes <= this.#limit) break
      this.#kept.delete(oldest)
      this.#bytes -= old.body.length
    }
  }

  get bytes(): number {
    return this.#bytes
  }
}
