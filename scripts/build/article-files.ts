/**
 * The article pages and their files (the markdown twin, BibTeX, CSL-JSON, RIS) in a build's site
 * folder, and llms-full.txt (the newest articles'): an unchanged article's files are linked from the live build.
 */
import { hash } from 'node:crypto'
import { linkSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { articleSignposts, linkHeader, signpostsFile } from '../../model/signposting.ts'
import { articlePage, markdownTwin, parseTemplate } from './article-page.ts'
import { articleCitation } from './citation/index.ts'
import { articleBody, type ArticleMeta } from './content.ts'
import type { EntrySource } from './entries.ts'
import { forEachLimited, mapAhead } from './limited.ts'
import { LLMS_FULL, LLMS_FULL_ARTICLES, reuseLlmsFull, writeLlmsFull } from './llms-full.ts'
import type { Previous } from './previous.ts'
import { coverHtml, navHtml, tocHtml } from './reading-parts.ts'

/** Files written at once. */
export const WRITE_CONCURRENCY = 32
/** Articles read ahead of a file written from all of them in order (the post index, llms-full.txt). */
export const READ_AHEAD = 32

/**
 * Writes every published article's page and files; returns, per page, the hash of its links to
 * other articles (the next build reuses a page only if they are the same).
 */
export async function writeArticles(
  siteDir: string,
  templateHtml: string,
  published: ArticleMeta[],
  related: number[][],
  prev: Previous | undefined,
  entries: EntrySource,
  baseUrl: string,
): Promise<Record<string, string>> {
  const postsDir = join(siteDir, 'posts')
  mkdirSync(postsDir, { recursive: true })
  const template = parseTemplate(templateHtml)
  const samePages = prev !== undefined && prev.template === templateHtml
  const twinOf = async (m: ArticleMeta) => markdownTwin(m, articleBody(await entries.text(m)), baseUrl)
  // A page also shows its neighbours and related articles: it is rewritten when they change,
  // e.g. when another article is added, removed or retitled.
  const navKeys: Record<string, string> = {}
  const pages = forEachLimited(published, WRITE_CONCURRENCY, async (m, i) => {
    const older = published[i + 1]
    const newer = published[i - 1]
    const others = related[i]!.map((j) => published[j]!)
    // What the links show, hashed in one call (cheap enough for every article of every build).
    const shown = [older, newer, ...others].map((a) => (a ? `${a.slug}\0${a.title}` : '')).join('\0')
    const navKey = (navKeys[m.slug] = hash('sha256', shown).slice(0, 16))
    const unchanged = prev?.bySlug.get(m.slug)?.hash === m.hash
    const page = join(postsDir, `${m.slug}.html`)
    // The page's Link header, which the service sends with it (auth-service/http/static-site.ts).
    await writeFile(signpostsFile(siteDir, m.slug), linkHeader(articleSignposts(m, baseUrl)))
    const twin = join(postsDir, `${m.slug}.md`)
    const reuse = (name: string) => linkSync(join(prev!.dir, 'site', 'posts', name), join(postsDir, name))
    // The twins depend on the article alone: an unchanged article's are linked from the live build.
    const samePage = unchanged && samePages && prev.state.navKeys?.[m.slug] === navKey
    const citation = samePage ? undefined : articleCitation(m, baseUrl)
    if (unchanged) {
      reuse(`${m.slug}.md`)
      reuse(`${m.slug}.bib`)
      reuse(`${m.slug}.csl.json`)
      reuse(`${m.slug}.ris`)
    } else {
      await writeFile(twin, await twinOf(m))
      await writeFile(join(postsDir, `${m.slug}.bib`), citation!.bibtex)
      await writeFile(join(postsDir, `${m.slug}.csl.json`), citation!.csl)
      await writeFile(join(postsDir, `${m.slug}.ris`), citation!.ris)
    }
    if (samePage) linkSync(join(prev.dir, 'site', 'posts', `${m.slug}.html`), page)
    else {
      const entry = await entries.get(m)
      const nav = navHtml(older, newer, others)
      await writeFile(
        page,
        articlePage(
          template,
          m,
          entry.html,
          baseUrl,
          { cover: coverHtml(m), toc: tocHtml(entry.headings), nav },
          citation,
        ),
      )
    }
  })
  // The same articles as the previous build (each unchanged, none added or removed): the same file.
  const sameArticles =
    prev !== undefined &&
    published.length === prev.state.articles.filter((a) => !a.draft).length &&
    published.every((m) => prev.bySlug.get(m.slug)?.hash === m.hash)
  const full = join(siteDir, LLMS_FULL)
  // Written beside the pages, in the order of the list.
  const newest = published.slice(0, LLMS_FULL_ARTICLES)
  const fullText =
    sameArticles && reuseLlmsFull(join(prev.dir, 'site', LLMS_FULL), full)
      ? undefined
      : writeLlmsFull(full, mapAhead(newest, READ_AHEAD, twinOf), newest.length, published.length)
  await Promise.all([pages, fullText])
  return navKeys
}
