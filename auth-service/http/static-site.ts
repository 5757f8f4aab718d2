import express, { type RequestHandler, type Response } from 'express'
import { readFileSync, statSync } from 'node:fs'
import { basename, extname, join, normalize } from 'node:path'
import { CORS_HEADERS, OPEN_FILES } from './cors.ts'
import { canonicalRedirect } from './canonical-address.ts'
import {
  ARTICLE_FILE_TYPES,
  ARTICLE_PAGE_PATTERN,
  POSTS_PATH,
  articlePath,
  type ArticleForm,
} from '../../model/article-address.ts'
import { EDGE_DIR, articleFile, bucketPath } from '../../model/article-bucket.ts'
import { DESCRIBED_BY, collectionLink, describesLink, linkHeader, signpostsFile } from '../../model/signposting.ts'

/** An article page's address (the twin is the same with `.md`). */
const ARTICLE = new RegExp(ARTICLE_PAGE_PATTERN)

/** A regular expression's alternatives for the given file forms, `.` escaped. */
const forms = (list: readonly string[]) => list.map((f) => f.replace(/\./g, '\\.')).join('|')
const SLUG_PART = ARTICLE_PAGE_PATTERN.slice(0, -1)
const PAGE_FILE = new RegExp(`${SLUG_PART}\\.html$`)
const METADATA_FILE = new RegExp(`${SLUG_PART}\\.(?:${forms(DESCRIBED_BY)})$`)
const TWIN_FILE = new RegExp(`${SLUG_PART}\\.md$`)
/** An article's page or one of its files, by address: the form captured (none: the page). */
const ARTICLE_FILE = new RegExp(`${SLUG_PART}(?:\\.(${forms(['html', ...Object.keys(ARTICLE_FILE_TYPES)])}))?$`)

/**
 * The FAIR Signposting links of a file of the site (model/signposting.ts): an article page's, as
 * the build wrote them beside the page; a metadata document's link back to the page it
 * describes, and the twin's to the page it is the content of (`collection`), absolute as the
 * page's own are.
 */
function signpostsOf(buildDir: string, baseUrl: string, url: string): string | undefined {
  const page = PAGE_FILE.exec(url)
  if (page) {
    try {
      return readFileSync(signpostsFile(buildDir, page[1]!), 'utf8')
    } catch {
      return undefined // a build from before Signposting
    }
  }
  const metadata = METADATA_FILE.exec(url)
  if (metadata) return linkHeader([describesLink(baseUrl, metadata[1]!)])
  const twin = TWIN_FILE.exec(url)
  return twin ? linkHeader([collectionLink(baseUrl, twin[1]!)]) : undefined
}

/**
 * Files whose names carry a content hash never change: cache them for a year. In the search
 * index: a shard's Pagefind files (search/pagefind/adapter.ts, HASHED_FOLDERS) and places, and
 * the score groups' files (search/build/groups.ts); not its entry files nor shards.json, which a
 * build rewrites, nor a shard's score files, named by the chunk they are read from, not by their
 * own bytes. The same rule is in deploy/nginx/default.conf.template.
 */
const HASHED = new RegExp(
  '^/(_astro/' +
    '|pagefind/\\d+-[0-9a-f]+/(fragment|index|filter|places)/' +
    '|pagefind/g\\d+-[0-9a-f]+/[0-9a-f]+\\.pf_group$)',
)

/** Types of the twins and feeds, which file extensions alone do not tell (the same in deploy/nginx). */
const TYPES: ReadonlyArray<readonly [suffix: string, type: string]> = [
  ...Object.entries(ARTICLE_FILE_TYPES).map(([form, type]) => [`.${form}`, type] as const),
  ['/atom.xml', 'application/atom+xml; charset=utf-8'],
  ['/rss.xml', 'application/rss+xml; charset=utf-8'],
]

/**
 * Serves the static build. `siteDir` goes through the `current` link that each build swaps
 * atomically, so a rebuild changes what is served without a restart. An article's page and files
 * are not in it but in the build's bucket folders (model/article-bucket.ts), found from the address.
 * `baseUrl` is the origin the build was made for (the server serves only such a build).
 */
export function staticSite(siteDir: string, baseUrl: string): RequestHandler[] {
  const buildDir = join(siteDir, '..')
  const edgeDir = join(buildDir, EDGE_DIR)
  const setHeaders = (res: Response, path: string, url: string) => {
    res.setHeader(
      'Cache-Control',
      HASHED.test(url) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
    )
    const link = signpostsOf(buildDir, baseUrl, url)
    if (link) res.setHeader('Link', link)
    const type = TYPES.find(([suffix]) => path.endsWith(suffix))
    if (type) res.setHeader('Content-Type', type[1])
    if (OPEN_FILES.test(path)) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value)
  }
  const options = { redirect: false, etag: true, lastModified: true }
  const files = express.static(siteDir, {
    ...options,
    extensions: ['html'],
    index: ['index.html'],
    setHeaders: (res: Response, path: string) => setHeaders(res, path, path.slice(siteDir.length)),
  })
  // The public address of a file in a bucket is POSTS_PATH and its name.
  const bucketFiles = express.static(edgeDir, {
    ...options,
    index: false,
    setHeaders: (res: Response, path: string) => setHeaders(res, path, `${POSTS_PATH}/${basename(path)}`),
  })
  const articles: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const article = ARTICLE_FILE.exec(req.path)
    if (!article) return next()
    const [, slug, form] = article
    const url = req.url
    const file = bucketPath(slug!, form === undefined || form === 'html' ? 'page' : (form as ArticleForm))
    req.url = `/${file}${url.slice(req.path.length)}`
    bucketFiles(req, res, (err?: unknown) => {
      req.url = url
      next(err)
    })
  }
  // An article's address answers with its markdown twin to a client that prefers text/markdown
  // (q-values honoured; HTML when Accept names neither, or only through wildcards), and says so
  // with Vary, whichever it answers.
  const negotiate: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const article = ARTICLE.exec(req.path)
    if (!article) return next()
    res.vary('Accept')
    if (
      req.headers.accept &&
      req.accepts(['text/html', 'text/markdown']) === 'text/markdown' &&
      isFile(articleFile(buildDir, article[1]!, 'md'))
    ) {
      res.setHeader('Content-Location', articlePath(article[1]!, 'md'))
      req.url = `${articlePath(article[1]!, 'md')}${req.url.slice(req.path.length)}`
    }
    next()
  }
  // Pages are files (tags.html) that can sit beside a folder of the same name (tags/): serve the
  // page for the extensionless address, which a plain static server would treat as the folder.
  const pages: RequestHandler = (req, _res, next) => {
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      req.path.length > 1 &&
      !extname(req.path) &&
      !req.path.endsWith('/')
    ) {
      const file = normalize(join(siteDir, `${decodeURIComponent(req.path)}.html`))
      if (file.startsWith(siteDir) && isFile(file)) req.url = `${req.path}.html${req.url.slice(req.path.length)}`
    }
    next()
  }
  const notFound: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    res.status(404)
    res.setHeader('Cache-Control', 'no-store')
    res.sendFile(join(siteDir, '404.html'), (err) => {
      if (err) res.type('text/plain').send('Not found')
    })
  }
  return [canonicalRedirect, negotiate, articles, pages, files, notFound]
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
