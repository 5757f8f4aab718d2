import type { APIRoute, GetStaticPaths } from 'astro'
import { articleBody, getArticles, isoDate, articlePath, type Article } from '../../lib/articles'

export const getStaticPaths = (async () => {
  const articles = await getArticles()
  return articles.map((article) => ({ params: { slug: article.id }, props: { article } }))
}) satisfies GetStaticPaths

/** The markdown twin: the article's own markdown under a short header, for readers that are programs. */
export const GET: APIRoute = ({ props, site }) => {
  const article = (props as { article: Article }).article
  const { id, data } = article
  const header = [
    `# ${data.title}`,
    '',
    `> ${data.description}`,
    '',
    `- Author: ${data.author}`,
    `- Published: ${isoDate(data.date)}`,
    ...(data.lastModified ? [`- Updated: ${data.lastModified.toISOString()}`] : []),
    ...(data.tags.length ? [`- Tags: ${data.tags.join(', ')}`] : []),
    `- Canonical: ${new URL(articlePath(id), site)}`,
  ].join('\n')
  return new Response(`${header}\n\n${articleBody(article).trim()}\n`, {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  })
}
