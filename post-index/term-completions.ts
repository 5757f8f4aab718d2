/**
 * Prefix completions in the order of MiniSearch's radix tree, which fixes the order in which a
 * query's scores are summed: the walk is taken once when the index is built (completionOrder) and
 * a query finds its run of it by binary search (prefixCompletions), never walking the tree.
 */
import SearchableMap from 'minisearch/SearchableMap'
import type { KeywordIndexState } from './index-state.ts'

/**
 * The terms that start with a prefix, in the order a walk of MiniSearch's radix tree yields
 * them, since that order fixes how scores are summed. The tree is walked once: the terms under a
 * prefix are one contiguous run of that walk, found from the terms sorted by code unit, so a query
 * never walks the tree.
 */
export function completionOrder(terms: readonly string[]): { walk: Int32Array; rank: Int32Array; sorted: Int32Array } {
  const tree = new SearchableMap<number>()
  terms.forEach((term, id) => {
    tree.set(term, id)
  })
  const walk = Int32Array.from(tree.values())
  const rank = new Int32Array(terms.length)
  walk.forEach((id, r) => {
    rank[id] = r
  })
  const sorted = Int32Array.from(terms.keys()).sort((a, b) =>
    terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0,
  )
  return { walk, rank, sorted }
}

/** The terms of a finished index that start with a prefix: their run of the walk (see completionOrder). */
export function prefixCompletions({ terms, walk, rank, sorted }: KeywordIndexState): (prefix: string) => Int32Array {
  return (prefix) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (terms[sorted[mid]!]! < prefix) lo = mid + 1
      else hi = mid
    }
    let first = walk.length
    let last = -1
    for (let i = lo; i < sorted.length && terms[sorted[i]!]!.startsWith(prefix); i++) {
      const r = rank[sorted[i]!]!
      if (r < first) first = r
      if (r > last) last = r
    }
    return walk.subarray(first, last + 1)
  }
}
