import { describe, expect, it } from 'vitest'
import { DELTA_ARTICLES, planDelta } from '../../scripts/builder/search-delta.ts'
import { pageNumbers } from '../../search/build/scores.ts'
import { planShards, shardOf, type ShardArticle } from '../../scripts/builder/search-shards.ts'

const BITS = 2
const VERSION = 'v'
const article = (slug: string, hash = `h-${slug}`): ShardArticle => ({
  slug,
  hash,
  title: slug,
  author: '',
  description: '',
})
const corpus = Array.from({ length: 200 }, (_, i) => article(`article-${i}`))

/** The live index as a full build leaves it: its shards' keys, and the articles it was made from. */
function indexed(articles: readonly ShardArticle[]) {
  const plan = planShards(articles, BITS, VERSION)
  return {
    shards: Object.fromEntries([...plan].map(([name, s]) => [name, s.key])),
    articles: new Map(articles.map((a) => [a.slug, a.hash])),
  }
}

const edit = (articles: readonly ShardArticle[], slug: string, hash: string) =>
  articles.map((a) => (a.slug === slug ? article(slug, hash) : a))

describe('a delta search index', () => {
  it("holds an edited article, hides its page in its base shard, and keeps every base shard's key", () => {
    const live = indexed(corpus)
    const now = edit(corpus, 'article-7', 'h-new')
    const plan = planDelta(now, BITS, VERSION, live, live.articles)!
    expect(plan.was).toEqual({ 'article-7': 'h-article-7' })
    expect(plan.shards.get(plan.shard)!.articles.map((a) => [a.slug, a.hash])).toEqual([['article-7', 'h-new']])
    for (const [name, key] of Object.entries(live.shards)) expect(plan.shards.get(name)?.key).toBe(key)
    const shard = shardOf('article-7', BITS)
    const slugs = corpus.filter((a) => shardOf(a.slug, BITS) === shard).map((a) => a.slug)
    expect(plan.hidden).toEqual(new Map([[shard, [pageNumbers(slugs).get('article-7')]]]))
  })

  it('grows from the live delta: a second edit keeps the first, and names the base hashes', () => {
    const base = indexed(corpus)
    const first = edit(corpus, 'article-7', 'h-1')
    const one = planDelta(first, BITS, VERSION, base, base.articles)!
    const live = {
      shards: Object.fromEntries([...one.shards].map(([name, s]) => [name, s.key])),
      delta: { shard: one.shard, was: one.was },
    }
    const second = [...edit(first, 'article-7', 'h-2'), article('article-new')]
    const two = planDelta(second, BITS, VERSION, live, new Map(first.map((a) => [a.slug, a.hash])))!
    expect(two.was).toEqual({ 'article-7': 'h-article-7', 'article-new': '' })
    expect(two.shard).not.toBe(one.shard)
    expect(two.shards.get(two.shard)!.articles.map((a) => `${a.slug}:${a.hash}`)).toEqual([
      'article-7:h-2',
      'article-new:h-article-new',
    ])
    // A new article hides nothing.
    expect([...two.hidden.values()].flat()).toHaveLength(1)
  })

  it('is not used when the change is undone, too large, deletions only, or the base is not the live index', () => {
    const live = indexed(corpus)
    expect(planDelta(corpus, BITS, VERSION, live, live.articles)).toBeUndefined()
    const many = corpus.map((a, i) => (i <= DELTA_ARTICLES ? article(a.slug, 'changed') : a))
    expect(planDelta(many, BITS, VERSION, live, live.articles)).toBeUndefined()
    expect(planDelta(corpus.slice(1), BITS, VERSION, live, live.articles)).toBeUndefined()
    // The live build says article-3 was indexed as it is now, but its index was made before that.
    const stale = { ...live, articles: new Map([...live.articles, ['article-3', 'h-later']]) }
    const now = edit(edit(corpus, 'article-3', 'h-later'), 'article-7', 'h-new')
    expect(planDelta(now, BITS, VERSION, stale, stale.articles)).toBeUndefined()
    expect(planDelta(now, BITS + 1, VERSION, live, live.articles)).toBeUndefined()
    expect(planDelta(now, BITS, VERSION, null, live.articles)).toBeUndefined()
  })
})
