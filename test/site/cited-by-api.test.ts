/**
 * The API's answer and the post index follow the articles citing an article: editing the
 * citing article updates the cited one's `citedBy` at the next build, and only the answers whose
 * list changed are written anew (the others' files, and so their validators, are kept).
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { articleFile } from '../../model/article-bucket.ts'
import { INDEX_FILES } from '../../post-index/index-file.ts'
import { build } from '../../scripts/build.ts'
import { readIndexedPosts } from '../support/index.ts'
import { writeCitedArticles, writeCitingArticle } from '../support/cited-corpus.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'http://localhost:4321'

describe('cited by, in the API', () => {
  const root = tempDir('cited-by-api')
  const content = join(root, 'content')
  const dist = join(root, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const answerFile = (slug: string) => articleFile(join(dist, 'current'), slug, 'json')
  const answer = (slug: string) => JSON.parse(readFileSync(answerFile(slug), 'utf8'))
  const indexed = (slug: string) => readIndexedPosts(dist).find((e) => e.slug === slug)!
  /** Where each article's body is in the live index's bodies file. */
  const placesOf = () =>
    Object.fromEntries(
      readFileSync(join(dist, 'current', INDEX_FILES.entries), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as { slug: string; body: [number, number] })
        .map((l) => [l.slug, l.body]),
    )
  const cite = (slug: string, title: string) => ({ slug, title, url: `${BASE}/posts/${slug}` })
  const citing = (slug: string, title: string, date: string, keys: string) =>
    writeCitingArticle(content, slug, title, date, keys)

  beforeAll(async () => {
    writeCitedArticles(content, BASE)
    citing('citing', 'Citing', '2025-01-04', '[@cited; @byurl]')
    citing('later', 'Later', '2025-01-05', '[@cited]')
    await build(env, { search: false })
  }, 180_000)

  it('lists the citing articles newest first, and the citing article’s references', () => {
    expect(answer('cited').citedBy).toEqual([cite('later', 'Later'), cite('citing', 'Citing')])
    expect(answer('by-url').citedBy).toEqual([cite('citing', 'Citing')])
    expect(answer('unrelated')).toMatchObject({ references: [], citedBy: [] })
    const { references, citedBy } = answer('citing')
    expect(citedBy).toEqual([])
    // In the References list's order (APA: same author and year, by title).
    expect(references).toEqual([
      expect.objectContaining({ id: 'byurl', URL: `${BASE}/posts/by-url` }),
      expect.objectContaining({ id: 'cited', DOI: '10.5555/lattice.cited', title: 'Cited' }),
    ])
    // The post index the service loads holds the same lists.
    expect(indexed('cited').citedBy).toEqual([
      { slug: 'later', title: 'Later' },
      { slug: 'citing', title: 'Citing' },
    ])
    expect(indexed('citing').references).toEqual(references)
  })

  it('updates the cited article when the citing one is edited, and writes no other answer anew', async () => {
    const kept = ['by-url', 'unrelated'].map((slug) => statSync(answerFile(slug)).ino)
    const places = placesOf()
    const cited = statSync(answerFile('cited')).ino
    citing('citing', 'Citing', '2025-01-04', '[@byurl]')
    await build(env, { search: false })
    expect(answer('cited').citedBy).toEqual([cite('later', 'Later')])
    expect(indexed('cited').citedBy).toEqual([{ slug: 'later', title: 'Later' }])
    expect(statSync(answerFile('cited')).ino).not.toBe(cited)
    expect(answer('by-url').citedBy).toEqual([cite('citing', 'Citing')])
    expect(['by-url', 'unrelated'].map((slug) => statSync(answerFile(slug)).ino)).toEqual(kept)
    // The index keeps their lines and bodies where they were; the cited article's is written anew.
    const after = placesOf()
    for (const slug of ['by-url', 'unrelated', 'later']) expect(after[slug], slug).toEqual(places[slug])
    expect(after.cited).not.toEqual(places.cited)
    expect(answer('citing').references.map((r: { id: string }) => r.id)).toEqual(['byurl'])
  }, 120_000)
})
