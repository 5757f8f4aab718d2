/**
 * The markdown twin of an article (`/posts/<slug>.md`): its markdown under a short header of its
 * metadata, for readers that are programs. One function for every place that hands it out, the
 * build's file and the MCP resource, so that an agent reading either gets the same bytes.
 */
import { doiUrl, licenseUrl, orcidUrl, type Post } from './article.ts'

/** The fields of the wire Post the header shows; the build and the service both have a Post. */
export type TwinFields = Pick<
  Post,
  'title' | 'description' | 'authors' | 'date' | 'lastModified' | 'tags' | 'doi' | 'license' | 'changes' | 'url'
>

/** `markdown` is the article's body without its front matter, as the post index holds it. */
export function markdownTwin(a: TwinFields, markdown: string): string {
  const header = [
    `# ${a.title}`,
    '',
    `> ${a.description}`,
    '',
    ...a.authors.map((p) => {
      const extra = [p.orcid && orcidUrl(p.orcid), p.affiliation].filter(Boolean).join(', ')
      return `- Author: ${p.name}${extra ? ` (${extra})` : ''}`
    }),
    `- Published: ${a.date}`,
    // lastModified is the publication's start when the article names no later moment.
    ...(a.lastModified !== `${a.date}T00:00:00.000Z` ? [`- Updated: ${a.lastModified}`] : []),
    ...(a.tags.length ? [`- Tags: ${a.tags.join(', ')}`] : []),
    ...(a.doi ? [`- DOI: ${doiUrl(a.doi)}`] : []),
    ...(a.license ? [`- License: ${a.license} (${licenseUrl(a.license)})`] : []),
    ...a.changes.map((c) => `- Changed ${c.date}: ${c.note}`),
    `- Canonical: ${a.url}`,
  ].join('\n')
  return `${header}\n\n${markdown.trim()}\n`
}
