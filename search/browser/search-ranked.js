// The matches of a query, as search-rank.js ranks them, and the best of them as a page shows
// them.

/**
 * The pages a query matches, with their scores: `total`, and `top(n)`, the best `n` as
 * [{ shard, page, score }], best first: the pages whose titles hold more of the query first (its
 * share of the query's IDF, `titled`), then those whose descriptions do (`described`), then by
 * score, equal scores in the order of (shard, page). A page shows
 * 20 of them: they are picked from the 50,000 a common word matches without sorting them all.
 */
export class Ranked {
  shards = []
  pages = []
  scores = []
  titled = []
  described = []

  get total() {
    return this.scores.length
  }

  push(shard, page, score, titled = 0, described = 0) {
    this.shards.push(shard)
    this.pages.push(page)
    this.scores.push(score)
    this.titled.push(titled)
    this.described.push(described)
  }

  /** The matches that `keep(shard, page)` keeps, in a Ranked of their own. */
  only(keep) {
    const out = new Ranked()
    for (let i = 0; i < this.scores.length; i++)
      if (keep(this.shards[i], this.pages[i]))
        out.push(this.shards[i], this.pages[i], this.scores[i], this.titled[i], this.described[i])
    return out
  }

  top(n) {
    const { shards, pages, scores, titled, described } = this
    const better = (i, j) =>
      titled[i] !== titled[j]
        ? titled[i] > titled[j]
        : described[i] !== described[j]
          ? described[i] > described[j]
          : scores[i] !== scores[j]
            ? scores[i] > scores[j]
            : shards[i] < shards[j] || (shards[i] === shards[j] && pages[i] < pages[j])
    const entry = (i) => ({ shard: shards[i], page: pages[i], score: scores[i] })
    // All of them: sorted, with no heap.
    if (n >= scores.length) return [...scores.keys()].sort((i, j) => (better(i, j) ? -1 : 1)).map(entry)
    // The best n so far in a heap whose root is the worst of them.
    const heap = []
    const down = (at) => {
      for (;;) {
        const left = 2 * at + 1
        let worst = at
        if (left < heap.length && better(heap[worst], heap[left])) worst = left
        if (left + 1 < heap.length && better(heap[worst], heap[left + 1])) worst = left + 1
        if (worst === at) return
        ;[heap[at], heap[worst]] = [heap[worst], heap[at]]
        at = worst
      }
    }
    for (let i = 0; i < scores.length && n > 0; i++) {
      if (heap.length < n) {
        heap.push(i)
        for (let at = heap.length - 1; at > 0; ) {
          const parent = (at - 1) >> 1
          if (!better(heap[parent], heap[at])) break
          ;[heap[at], heap[parent]] = [heap[parent], heap[at]]
          at = parent
        }
      } else if (better(i, heap[0])) {
        heap[0] = i
        down(0)
      }
    }
    heap.sort((i, j) => (better(i, j) ? -1 : 1))
    return heap.map(entry)
  }
}
