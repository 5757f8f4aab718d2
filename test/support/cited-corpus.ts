/**
 * A small publication where articles cite each other: `cited` by its DOI (written in another
 * case than the bibliography's), `by-url` by its address, and `unrelated`, cited by nobody.
 * Articles citing them name `citing.bib`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** An article's markdown, by Ada Writer. */
export const article = (title: string, date: string, extra = '', body = 'Text.') =>
  `---\ntitle: "${title}"\ndescription: "About ${title}."\ndate: ${date}\nauthor: "Ada Writer"\n${extra}---\n\n${body}\n`

/** Writes the three cited articles and `citing.bib` into `content`, for a site at `base`. */
export function writeCitedArticles(content: string, base: string): void {
  mkdirSync(content, { recursive: true })
  writeFileSync(join(content, 'cited.md'), article('Cited', '2025-01-01', 'doi: 10.5555/Lattice.Cited\n'))
  writeFileSync(join(content, 'by-url.md'), article('By URL', '2025-01-02'))
  writeFileSync(join(content, 'unrelated.md'), article('Unrelated', '2025-01-03'))
  writeFileSync(
    join(content, 'citing.bib'),
    '@article{cited, title = {Cited}, author = {Writer, Ada}, year = 2025, doi = {10.5555/lattice.cited}}\n' +
      `@online{byurl, title = {By URL}, author = {Writer, Ada}, year = 2025, url = {${base}/posts/by-url}}\n`,
  )
}

/** Writes an article citing `keys` (a citation as written, e.g. `[@cited; @byurl]`) from citing.bib. */
export const writeCitingArticle = (content: string, slug: string, title: string, date: string, keys: string) =>
  writeFileSync(join(content, `${slug}.md`), article(title, date, 'bibliography: citing.bib\n', `As ${keys} show.`))
