/**
 * The post-index entries of a generated corpus, made as the build makes them (frontmatter by
 * gray-matter, the wire forms of the dates, the body after the frontmatter), so that the service's
 * index can be measured at any size without building the site.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import matter from 'gray-matter'
import { Frontmatter, readingMinutes, type IndexEntry } from '../model/article.ts'

export function corpusEntries(dir: string): IndexEntry[] {
  const entries: IndexEntry[] = []
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const { data, content } = matter(readFileSync(join(dir, file), 'utf8'))
    const fm = Frontmatter.parse(data)
    if (fm.draft) continue
    const body = content.replace(/^\s*\n/, '')
    entries.push({
      slug: file.slice(0, -'.md'.length),
      title: fm.title,
      description: fm.description,
      date: fm.date.toISOString().slice(0, 10),
      lastModified: (fm.lastModified ?? fm.date).toISOString(),
      author: fm.author,
      tags: fm.tags,
      ...(fm.image ? { image: fm.image } : {}),
      readingMinutes: readingMinutes(body),
      markdown: `${body.trim()}\n`,
    })
  }
  return entries.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
}
