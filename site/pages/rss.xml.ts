import rss from '@astrojs/rss'
import type { APIRoute } from 'astro'
import { getArticles, articlePath } from '../lib/articles'
import { SITE } from '../lib/site'

export const GET: APIRoute = async ({ site }) => {
  const articles = await getArticles()
  return rss({
    title: SITE.name,
    description: SITE.tagline,
    site: site!,
    trailingSlash: false,
    items: articles.map((a) => ({
      title: a.data.title,
      description: a.data.description,
      pubDate: a.data.date,
      link: articlePath(a.id),
      author: a.data.author,
      categories: a.data.tags,
    })),
  })
}
