import type { APIRoute } from 'astro'
import { articleBody, getArticles, isoDate, lastModified, readingMinutes } from '../lib/articles'

/**
 * The post index: the one contract between the site and the service. scripts/build.ts moves it
 * out of the public folder; the service validates it on load. URLs are left relative so that
 * the service can make them absolute with its own BASE_URL.
 */
export const GET: APIRoute = async () => {
  const articles = await getArticles()
  const posts = articles.map((a) => {
    const body = articleBody(a)
    return {
    slug: a.id,
    title: a.data.title,
    description: a.data.description,
    date: isoDate(a.data.date),
    lastModified: lastModified(a),
    author: a.data.author,
    tags: a.data.tags,
    ...(a.data.image ? { image: a.data.image } : {}),
    readingMinutes: readingMinutes(body),
    markdown: body.trim() + '\n',
    }
  })
  return new Response(JSON.stringify({ version: 1, generatedAt: new Date().toISOString(), posts }), {
    headers: { 'Content-Type': 'application/json' },
  })
}
