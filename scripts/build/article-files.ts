/**
 * The article pages and their files (the markdown twin, BibTeX, CSL-JSON, RIS) in a build's site
 * folder, and llms-full.txt (the newest articles'): an unchanged article's files are linked from the live build.
 */
import { hash } from 'node:crypto'
import { existsSync, linkSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { articleSignposts, linkHeader, signpostsFile } from '../../model/signposting.ts'
import { articlePage, markdownTwin, parseTemplate } from './article-page.ts'
import { articleCitation } from './citation/index.ts'
import { articleBody, type ArticleMeta } from './content.ts'
import type { EntrySource } from './entries.ts'
import { forEachLimited, mapAhead } from './limited.ts'
import {
  LLMS_FULL,
  LLMS_FULL_ARTICLES,
  reuseLlmsFull,
  writeLlmsFull,
  type FullPart,
  type FullSpans,
} from './llms-full.ts'
import type { Previous } from './previous.ts'
import { coverHtml, navHtml, tocHtml } from './reading-parts.ts'

/** Files written at once. */
export const WRITE_CONCURRENCY = 32
/** Articles read ahead of a file written from all of them in order (the post index, llms-full.txt). */
export const READ_AHEAD = 32

/** What the next build needs to reuse this one's article files. */
export interface ArticleFiles {
  /** Per page, the hash of its links to other articles: the next build reuses a page only if they are the same. */
  navKeys: Record<string, string>
  /** Where each article is in llms-full.txt, when known. */
  llmsFull: FullSpans | undefined
}

/** Writes every published article's page and files. */
export async function writeArticles(
  siteDir: string,
  templateHtml: string,
  published: ArticleMeta[],
  related: number[][],
  prev: Previous | undefined,
  entries: EntrySource,
  baseUrl: string,
): Promise<ArticleFiles> {
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
    const twin = join(postsDir, `${m.slug}.md`)
    const reuse = (name: string) => linkSync(join(prev!.dir, 'site', 'posts', name), join(postsDir, name))
    // The page's Link header, which the service sends with it (auth-service/http/static-site.ts).
    if (unchanged) reuse(`${m.slug}.link`)
    else await writeFile(signpostsFile(siteDir, m.slug), linkHeader(articleSignposts(m, baseUrl)))
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
  const previousFull = prev && join(prev.dir, 'site', LLMS_FULL)
  const spans = previousFull && existsSync(previousFull) ? prev.state.llmsFull : undefined
  // Written beside the pages, in the order of the list; an unchanged article's twin copied from the live file.
  const newest = published.slice(0, LLMS_FULL_ARTICLES)
  const parts = mapAhead(newest, READ_AHEAD, async (m): Promise<FullPart> => {
    const kept = spans && prev?.bySlug.get(m.slug)?.hash === m.hash ? spans[m.slug] : undefined
    return kept ? { slug: m.slug, kept } : { slug: m.slug, text: await twinOf(m) }
  })
  const fullText: Promise<FullSpans | undefined> =
    sameArticles && reuseLlmsFull(previousFull!, full)
      ? Promise.resolve(spans)
      : writeLlmsFull(full, parts, newest.length, published.length, spans && previousFull)
  const [, llmsFull] = await Promise.all([pages, fullText])
  return { navKeys, llmsFull }
}
