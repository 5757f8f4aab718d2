/**
 * The article pages and their files (the markdown twin, BibTeX, CSL-JSON, RIS, JATS, the Crossref
 * deposit, the Link header, the linksets, the API answer) in the build's bucket folders (model/article-bucket.ts), and
 * llms-full.txt (the newest articles'). A bucket none of whose files changed is the live build's
 * folder, shared through one link; any other is a new folder, its unchanged articles' files
 * linked from the live build's.
 */
import { existsSync, linkSync, mkdirSync, readlinkSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { indexFields, isCrossrefDoi, toPost, type IndexEntry } from '../../model/article.ts'
import {
  EDGE_DIR,
  articleBucket as bucketOfSlug,
  articleFileName,
  type ArticleFileForm,
} from '../../model/article-bucket.ts'
import { articleLinkset, linksetJson, linksetText } from '../../model/linkset.ts'
import { pageLinkHeader } from '../../model/signposting.ts'
import { articlePage, parseTemplate } from './article-page.ts'
import { markdownTwin } from '../../model/markdown-twin.ts'
import type { ArticleLinks } from './article-links.ts'
import { articleCitation } from './citation/index.ts'
import { crossrefDeposit } from './crossref/index.ts'
import type { Depositor } from './crossref/depositor.ts'
import { jatsArticle, jatsBody } from './jats/index.ts'
import type { ArticleMeta } from './content.ts'
import { linkBucket, type SharedStore } from './dist.ts'
import { writeEdgeFile } from './edge-files.ts'
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
import { isPublished } from './schedule.ts'
import { coverHtml, navHtml, tocHtml } from './reading-parts.ts'

/** Files written at once. */
export const WRITE_CONCURRENCY = 32
/** Articles read ahead of a file written from all of them in order (the post index, llms-full.txt). */
export const READ_AHEAD = 32

/**
 * What the next build needs to reuse this one's article files, besides the pages' links
 * (article-links.ts).
 */
export interface ArticleFiles {
  /** Where each article is in llms-full.txt, when known. */
  llmsFull: FullSpans | undefined
}

/** What writing the articles needs besides them. */
export interface ArticleSources {
  template: string
  /** Each page's related articles and the key of its links (article-links.ts). */
  links: Pick<ArticleLinks, 'related' | 'citedBy' | 'navKeys'>
  /** The live build, when its article files can be reused (same renderer and build code). */
  reusable: Previous | undefined
  /** The live build, whatever made it: an API answer keeps its file (and mtime) while its bytes are the same. */
  live: Previous | undefined
  entries: EntrySource
  /** An article's post index entry, with the articles citing it (it reads the markdown). */
  indexEntry: (m: ArticleMeta) => Promise<IndexEntry>
  baseUrl: string
  /** Who the Crossref deposits name (crossref/depositor.ts). */
  depositor: Depositor
}

/**
 * Writes every published article's page and files, and site/llms-full.txt. Returns the counts of
 * buckets made and shared.
 */
export async function writeArticles(
  buildDir: string,
  store: SharedStore,
  published: ArticleMeta[],
  sources: ArticleSources,
): Promise<ArticleFiles & { buckets: { made: number; shared: number } }> {
  const { entries, baseUrl, live } = sources
  const { related, citedBy, navKeys } = sources.links
  const prev = sources.reusable
  const siteDir = join(buildDir, 'site')
  mkdirSync(join(buildDir, EDGE_DIR), { recursive: true })
  const template = parseTemplate(sources.template)
  const samePages = prev !== undefined && prev.template === sources.template
  const twinOf = async (m: ArticleMeta) => markdownTwin(toPost(indexFields(m), baseUrl), await entries.body(m))
  // A page also shows its neighbours and related articles: it is rewritten when they change,
  // e.g. when another article is added, removed or retitled.
  // An article the live build has files for: it published it (a scheduled one it only rendered).
  const livePublished = (slug: string) => {
    const a = prev?.bySlug.get(slug)
    return a && isPublished(a) ? a : undefined
  }
  const samePage: boolean[] = published.map(
    (m) => samePages && livePublished(m.slug)?.hash === m.hash && prev.state.navKeys?.[m.slug] === navKeys[m.slug],
  )

  // The buckets: one the live build has with the same articles, every page the same, is shared.
  // Each slug's bucket hashed once (three times each, it cost 0.14 s at 50,000 articles).
  const bucketOf = new Map<string, string>()
  const articleBucket = (slug: string) => {
    let bucket = bucketOf.get(slug)
    if (bucket === undefined) bucketOf.set(slug, (bucket = bucketOfSlug(slug)))
    return bucket
  }
  const buckets = new Map<string, number[]>()
  published.forEach((m, i) => {
    const b = articleBucket(m.slug)
    const list = buckets.get(b)
    if (list) list.push(i)
    else buckets.set(b, [i])
  })
  const before = new Map<string, number>()
  for (const a of prev?.state.articles ?? [])
    if (isPublished(a)) before.set(articleBucket(a.slug), (before.get(articleBucket(a.slug)) ?? 0) + 1)
  const made: Array<{ bucket: string; articles: number[] }> = []
  let shared = 0
  for (const [bucket, articles] of buckets) {
    const same = prev && before.get(bucket) === articles.length && articles.every((i) => samePage[i])
    const target = same ? liveBucket(prev.dir, bucket) : undefined
    if (target) {
      linkBucket(buildDir, bucket, target)
      shared++
    } else made.push({ bucket, articles })
  }

  const folders = new Map(made.map(({ bucket }) => [bucket, store.folder(bucket)]))
  for (const folder of folders.values()) mkdirSync(folder.path)
  const writes = made.flatMap(({ articles }) => articles)
  const pages = forEachLimited(writes, WRITE_CONCURRENCY, async (i) => {
    const m = published[i]!
    const bucket = articleBucket(m.slug)
    const folder = folders.get(bucket)!.path
    const file = (form: ArticleFileForm) => join(folder, articleFileName(m.slug, form))
    const prevFile = (form: ArticleFileForm) => join(prev!.dir, EDGE_DIR, bucket, articleFileName(m.slug, form))
    const unchanged = livePublished(m.slug)?.hash === m.hash
    const reuse = (form: ArticleFileForm) => linkSync(prevFile(form), file(form))
    // The page's Link header, which the service sends with it (auth-service/http/static-site.ts),
    // and its linkset in both formats (model/linkset.ts).
    if (unchanged) {
      reuse('link')
      reuse('linkset.json')
      reuse('linkset')
    } else {
      await writeFile(file('link'), pageLinkHeader(m, baseUrl))
      const linkset = articleLinkset(m, baseUrl)
      await writeFile(file('linkset.json'), linksetJson(linkset))
      await writeFile(file('linkset'), linksetText(linkset))
    }
    // The twins depend on the article alone: an unchanged article's are linked from the live build.
    const citation = samePage[i] ? undefined : articleCitation(m, baseUrl)
    // The rendered article, read once for the page and the JATS and Crossref files.
    let rendered: ReturnType<typeof entries.get> | undefined
    const entry = () => (rendered ??= entries.get(m))
    if (unchanged) {
      reuse('md')
      reuse('bib')
      reuse('csl.json')
      reuse('ris')
      reuse('jats.xml')
      if (isCrossrefDoi(m.doi)) reuse('crossref.xml')
    } else {
      await writeFile(file('md'), await twinOf(m))
      await writeFile(file('bib'), citation!.bibtex)
      await writeFile(file('csl.json'), citation!.csl)
      await writeFile(file('ris'), citation!.ris)
      const { html, references = [] } = await entry()
      const body = jatsBody(html, baseUrl)
      await writeFile(file('jats.xml'), jatsArticle({ meta: m, body, references }, baseUrl))
      const deposit = crossrefDeposit(m, { items: references, entries: body.entries }, sources.depositor, baseUrl)
      if (deposit) await writeFile(file('crossref.xml'), deposit)
    }
    if (samePage[i]) reuse('page')
    else {
      const page = await entry()
      const nav = navHtml(
        published[i + 1],
        published[i - 1],
        related[i]!.map((j) => published[j]!),
        citedBy[i]!.map((j) => published[j]!),
      )
      await writeFile(
        file('page'),
        articlePage(
          template,
          m,
          page.html,
          baseUrl,
          { cover: coverHtml(m), toc: tocHtml(page.headings), nav },
          citation,
          page.references,
        ),
      )
    }
    const previousAnswer = live && join(live.dir, EDGE_DIR, bucket, articleFileName(m.slug, 'json'))
    // The answer lists the articles citing it: it is laid out again (and kept if the same) when
    // the page's links changed, which they do when those articles do.
    const sameAnswer = unchanged && prev?.state.navKeys?.[m.slug] === navKeys[m.slug]
    await writeEdgeFile(file('json'), previousAnswer, sameAnswer, () => sources.indexEntry(m), baseUrl)
  }).then(() => {
    // Each new bucket is linked once it is whole.
    for (const [bucket, folder] of folders) linkBucket(buildDir, bucket, folder.link)
  })
  // The same articles as the previous build (each unchanged, none added or removed): the same file.
  const sameArticles =
    prev !== undefined &&
    published.length === prev.state.articles.filter(isPublished).length &&
    published.every((m) => livePublished(m.slug)?.hash === m.hash)
  const full = join(siteDir, LLMS_FULL)
  const previousFull = prev && join(prev.dir, 'site', LLMS_FULL)
  const spans = previousFull && existsSync(previousFull) ? prev.state.llmsFull : undefined
  // Written beside the pages, in the order of the list; an unchanged article's twin copied from the live file.
  const newest = published.slice(0, LLMS_FULL_ARTICLES)
  const parts = mapAhead(newest, READ_AHEAD, async (m): Promise<FullPart> => {
    const kept = spans && livePublished(m.slug)?.hash === m.hash ? spans[m.slug] : undefined
    return kept ? { slug: m.slug, kept } : { slug: m.slug, text: await twinOf(m) }
  })
  const fullText: Promise<FullSpans | undefined> =
    sameArticles && reuseLlmsFull(previousFull!, full)
      ? Promise.resolve(spans)
      : writeLlmsFull(full, parts, newest.length, published.length, spans && previousFull)
  const [, llmsFull] = await Promise.all([pages, fullText])
  return { llmsFull, buckets: { made: made.length, shared } }
}

/** Where the live build's link of a bucket points, if it has the bucket. */
function liveBucket(buildDir: string, bucket: string): string | undefined {
  try {
    return readlinkSync(join(buildDir, EDGE_DIR, bucket))
  } catch {
    return undefined
  }
}
