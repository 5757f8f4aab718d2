import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Tags of the list corpus: every article has two or three, and "systems" is on more than a page of them. */
export const LIST_TAGS = ['systems', 'statistics', 'learning', 'retrieval', 'privacy']

/**
 * Writes `count` short articles into `dir` (`article-1` the oldest, one a day), for the tests of
 * the list pages and the reading aids: each third names a cover, and `article-1` is long enough
 * for a table of contents. Titles and authors of varied length make cards of varied height.
 */
export function writeListCorpus(dir: string, count: number): void {
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `article-${i}.md`), listArticle(i))
}

export function listArticle(i: number, overrides: { title?: string; tags?: string[] } = {}): string {
  const date = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)
  const tags = overrides.tags ?? [
    LIST_TAGS[i % LIST_TAGS.length]!,
    LIST_TAGS[(i * 2 + 1) % LIST_TAGS.length]!,
    ...(i % 2 === 0 ? ['systems'] : []),
  ]
  const longer = ': a much longer title that wraps onto a second and perhaps a third line of its card'
  const title = overrides.title ?? `Article ${i}${i % 4 === 0 ? longer : ''}`
  const author = i % 5 === 0 ? 'Maximiliana Evangelista Featherstonehaugh-Montgomery' : 'Ada Lovelace'
  const cover =
    i % 3 === 0
      ? ['image: /images/default-cover.svg', ...(i % 6 === 0 ? [`imageAlt: "Diagram for article ${i}"`] : [])]
      : []
  const sections =
    i === 1
      ? ['## Method', 'How.', '### Sampling', 'Which.', '## Results', 'What.', '## Threats & limits', 'Why not.']
      : ['Body of the article.']
  return [
    '---',
    `title: "${title}"`,
    `description: "Description of article ${i}."`,
    `date: ${date}`,
    `author: "${author}"`,
    `tags: [${[...new Set(tags)].join(', ')}]`,
    ...cover,
    '---',
    '',
    ...sections,
    '',
  ].join('\n')
}
