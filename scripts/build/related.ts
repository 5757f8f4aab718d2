/**
 * Related articles by tags, for every published article at once, through an inverted index
 * (tag → its articles in list order). An article's candidates are the RELATED_WINDOW articles
 * nearest to it in date in each of its tags; they rank by tags shared, then nearness in publication
 * order, then newest. The cost is O(articles × tags × window), linear in the articles: a tag on half the
 * site does not make it quadratic. Nearness also keeps an edit local: adding or removing an
 * article changes the related articles of its neighbours in its tags only, so an incremental
 * build rewrites few pages.
 */

/** Related articles shown under an article. */
export const RELATED_COUNT = 3
/** Articles looked at on either side of an article in each of its tags. */
export const RELATED_WINDOW = 24

/**
 * For each article (by index in `articles`, which is in list order: newest first), the indexes
 * of its related articles, best first; articles that share no tag are never related, and the
 * articles just before and after it (its previous and next) are not repeated.
 */
export function relatedArticles(articles: ReadonlyArray<{ tags: readonly string[] }>, count = RELATED_COUNT, window = RELATED_WINDOW): number[][] {
  // Each tag's articles, in list order; and each article's position in each of its tags' lists.
  const byTag = new Map<string, number[]>()
  const positions: number[][] = articles.map((a, i) =>
    a.tags.map((t) => {
      const list = byTag.get(t) ?? byTag.set(t, []).get(t)!
      return list.push(i) - 1
    }),
  )
  const tagSets = articles.map((a) => new Set(a.tags))
  return articles.map((a, i) => {
    const mine = tagSets[i]!
    const seen = new Set<number>()
    const ranked: Array<{ j: number; shared: number }> = []
    a.tags.forEach((t, k) => {
      const list = byTag.get(t)!
      const at = positions[i]![k]!
      for (let p = Math.max(0, at - window); p <= Math.min(list.length - 1, at + window); p++) {
        const j = list[p]!
        // Itself, and the previous and next articles, which the page links already.
        if (Math.abs(j - i) <= 1 || seen.has(j)) continue
        seen.add(j)
        let shared = 0
        for (const u of tagSets[j]!) if (mine.has(u)) shared++
        ranked.push({ j, shared })
      }
    })
    ranked.sort((x, y) => y.shared - x.shared || Math.abs(x.j - i) - Math.abs(y.j - i) || x.j - y.j)
    return ranked.slice(0, count).map((r) => r.j)
  })
}
