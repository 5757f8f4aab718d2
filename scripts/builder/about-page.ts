/**
 * The About page, `/about`, from CONTENT_DIR/about.md when the writer made one. It is not an
 * article: it is never listed, nor in the feeds, the search, the post index or the API. The
 * build reads and hashes it with the articles (Astro runs again when it changes), renders it
 * with the articles' renderer, and hands Astro the result as a JSON file (ABOUT_FILE), which
 * site/pages/[about].astro shows and the footers link to.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter'
import { z } from 'zod'
import type { AboutPage } from '../../site/lib/about.ts'
import { articleBody } from './content.ts'
import type { BuildProblem } from './errors.ts'
import { renderMarkdown } from './renderer.ts'
import { ABOUT_FILE } from './source-stats.ts'

export { ABOUT_FILE }

const AboutFrontmatter = z
  .object({
    title: z.string().trim().min(1).max(200).default('About'),
    description: z.string().trim().min(1).max(400).optional(),
  })
  .strict()

/** about.md's text and hash, or undefined when there is none. */
export function readAbout(contentDir: string): { source: string; hash: string } | undefined {
  let source: string
  try {
    source = readFileSync(join(contentDir, ABOUT_FILE), 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
  return { source, hash: createHash('sha256').update(source).digest('hex') }
}

/** Writes the page's JSON into the build folder `dir` and returns its path, or pushes its problems. */
export async function writeAbout(source: string, dir: string, problems: BuildProblem[]): Promise<string | undefined> {
  const page = await renderAbout(source, problems)
  if (!page) return undefined
  const file = join(dir, 'about.json')
  writeFileSync(file, JSON.stringify(page))
  return file
}

/** The page as Astro reads it, or undefined after pushing what is wrong with its front matter. */
export async function renderAbout(source: string, problems: BuildProblem[]): Promise<AboutPage | undefined> {
  let data: Record<string, unknown> = {}
  try {
    if (/^---\r?\n/.test(source)) data = parseFrontmatter(source).frontmatter
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e)
    problems.push({ file: ABOUT_FILE, message: `the frontmatter is not valid YAML: ${reason}` })
    return undefined
  }
  const parsed = AboutFrontmatter.safeParse(data ?? {})
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push({
        file: ABOUT_FILE,
        field: issue.path.join('.') || undefined,
        message: issue.code === 'unrecognized_keys' ? `unknown fields: ${issue.keys.join(', ')}` : issue.message,
        fix: 'the About page takes a title and a description only',
      })
    return undefined
  }
  const { html } = await renderMarkdown(articleBody(source))
  return { ...parsed.data, html }
}
