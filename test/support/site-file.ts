import { join } from 'node:path'
import type { ArticleForm } from '../../model/article-address.ts'
import { articleFile } from '../../model/article-bucket.ts'

/**
 * A file of a build by its address from the site's root (`posts/<slug>.html`, `index.html`): an
 * article's in its bucket folder (model/article-bucket.ts), any other in the build's site/.
 */
export function siteFile(buildDir: string, path: string): string {
  const article = /^posts\/([^./]+)\.(html|md|bib|csl\.json|ris|jats\.xml|crossref\.xml)$/.exec(path)
  if (!article) return join(buildDir, 'site', path)
  return articleFile(buildDir, article[1]!, article[2] === 'html' ? 'page' : (article[2] as ArticleForm))
}
