/**
 * A Map that forgets everything once it reaches its size: enough for formulas and code blocks
 * that recur across articles, without letting a big corpus grow a worker's memory.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>()
  readonly #size: number
  constructor(size: number) {
    this.#size = size
  }
  get(key: string): V | undefined {
    return this.#entries.get(key)
  }
  set(key: string, value: V): void {
    if (this.#entries.size >= this.#size) this.#entries.clear()
    this.#entries.set(key, value)
  }
}
