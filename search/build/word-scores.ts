/**
 * One word's scores across a shard's pages (search/build/scores.ts), gathered in arrays indexed by
 * page number rather than a map of objects: a shard's word index has a million pages of words.
 */
export class WordScores {
  private readonly weights: Float64Array
  private readonly fields: Int32Array
  private readonly seen: Uint8Array
  private readonly touched: Int32Array
  private count = 0

  constructor(pages: number) {
    this.weights = new Float64Array(pages)
    this.fields = new Int32Array(pages)
    this.seen = new Uint8Array(pages)
    this.touched = new Int32Array(pages)
  }

  /** Adds a weight and field bits to page `number` (the word's, or one of its variants'). */
  add(number: number, weight: number, fields: number): void {
    if (this.seen[number] === 0) {
      this.seen[number] = 1
      this.touched[this.count++] = number
    }
    this.weights[number]! += weight
    this.fields[number]! |= fields
  }

  /**
   * The word's `[page, weight, fields, …]`, pages ascending, each as the difference from the one
   * before; then clears.
   */
  take(): number[] {
    const pages = this.touched.subarray(0, this.count).sort()
    const flat = new Array<number>(pages.length * 3)
    let last = 0
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!
      flat[i * 3] = page - last
      flat[i * 3 + 1] = this.weights[page]!
      flat[i * 3 + 2] = this.fields[page]!
      last = page
      this.weights[page] = 0
      this.fields[page] = 0
      this.seen[page] = 0
    }
    this.count = 0
    return flat
  }
}
