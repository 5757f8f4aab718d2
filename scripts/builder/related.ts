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
export const RELATED_WINDOW = 12

/**
 * For each article (by index in `articles`, which is in list order: newest first), the indexes
 * of its related articles, best first; articles that share no tag are never related, and the
 * articles just before and after it (its previous and next) are not repeated.
 */
export function relatedArticles(
  articles: ReadonlyArray<{ tags: readonly string[] }>,
  count = RELATED_COUNT,
  window = RELATED_WINDOW,
): number[][] {
  // Tags as numbers; each tag's articles in list order; each article's tags and its position in each tag's list.
  const tagIds = new Map<string, number>()
  const lists: number[][] = []
  const tagsOf: number[][] = []
  const positions: number[][] = []
  articles.forEach((a, i) => {
    const ids = [...new Set(a.tags)].map((t) => tagIds.get(t) ?? (tagIds.set(t, lists.push([]) - 1), lists.length - 1))
    tagsOf.push(ids)
    positions.push(ids.map((id) => lists[id]!.push(i) - 1))
  })
  // Per article under consideration (stamp = its index + 1): its tags, and the candidates seen.
  const tagMark = new Int32Array(lists.length)
  const seenMark = new Int32Array(articles.length)
  const best: Array<{ j: number; shared: number; distance: number }> = []
  return articles.map((_, i) => {
    const stamp = i + 1
    for (const id of tagsOf[i]!) tagMark[id] = stamp
    best.length = 0
    tagsOf[i]!.forEach((id, k) => {
      const list = lists[id]!
      const at = positions[i]![k]!
      const end = Math.min(list.length - 1, at + window)
      for (let p = Math.max(0, at - window); p <= end; p++) {
        const j = list[p]!
        // Itself, and the previous and next articles, which the page links already.
        if (Math.abs(j - i) <= 1 || seenMark[j] === stamp) continue
        seenMark[j] = stamp
        let shared = 0
        for (const u of tagsOf[j]!) if (tagMark[u] === stamp) shared++
        // Keep the best `count`, best first: more tags shared, then nearer, then newer (lower index).
        const distance = Math.abs(j - i)
        let at = best.length
        while (at > 0 && better(shared, distance, j, best[at - 1]!)) at--
        if (at < count) {
          best.splice(at, 0, { j, shared, distance })
          if (best.length > count) best.pop()
        }
      }
    })
    return best.map((b) => b.j)
  })
}

function better(
  shared: number,
  distance: number,
  j: number,
  b: { j: number; shared: number; distance: number },
): boolean {
  return shared !== b.shared ? shared > b.shared : distance !== b.distance ? distance < b.distance : j < b.j
}
