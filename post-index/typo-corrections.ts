/**
 * Typo tolerance for the keyword index: the indexed words within a few edits of a query word that
 * matches nothing, found with MiniSearch's own radix tree and its Levenshtein walk (fuzzyGet), so
 * that the scores sum in the order MiniSearch's fuzzy search sums them.
 *
 * The edits are counted as the search page counts them (search/browser/search-typos.js): a swap
 * of two neighbouring letters is one edit (optimal string alignment), as Meilisearch and Typesense
 * count it, where Levenshtein's, and so fuzzyGet's, counts two. The walk is asked for twice the
 * edits (a swap is two of its own), and what it finds is measured again with the page's rule.
 */
import SearchableMap from 'minisearch/SearchableMap'
import { editDistance } from '../search/browser/search-typos.js'
import type { KeywordIndexState } from './index-state.ts'
import { typoDistance } from './search-terms.ts'

/** A corrected query word, as the answer reports it. */
export interface Correction {
  from: string
  to: string
}

/** The indexed words near a query word, in the tree's order, and the one the answer names. */
export interface NearWords {
  terms: Array<{ id: number; distance: number }>
  best: string
}

/**
 * The words near a query word (typoDistance: one edit from 5 letters, two from 9), or undefined
 * when none is. The tree is built on the first such query, not at start-up: most queries match.
 */
export function nearWords({ terms, frequency }: Pick<KeywordIndexState, 'terms' | 'frequency'>) {
  let tree: SearchableMap<number> | undefined
  return (word: string): NearWords | undefined => {
    const distance = typoDistance(word)
    if (distance === 0) return undefined
    if (!tree) {
      tree = new SearchableMap<number>()
      terms.forEach((term, id) => {
        tree!.set(term, id)
      })
    }
    const found: NearWords['terms'] = []
    for (const [id, d] of tree.fuzzyGet(word, 2 * distance).values()) {
      const edits = d <= 1 ? d : editDistance(word, terms[id]!, distance)
      if (edits > 0 && edits <= distance) found.push({ id, distance: edits })
    }
    if (found.length === 0) return undefined
    // The nearest word, then the commonest, then the first in code-unit order names the correction.
    let best = found[0]!
    for (const f of found) {
      const better =
        f.distance !== best.distance
          ? f.distance < best.distance
          : frequency[f.id] !== frequency[best.id]
            ? frequency[f.id]! > frequency[best.id]!
            : terms[f.id]! < terms[best.id]!
      if (better) best = f
    }
    return { terms: found, best: terms[best.id]! }
  }
}
