import type { APIRoute } from 'astro'
import { getArticles } from '../lib/articles'
import { FEEDS, rssFeed } from '../lib/feeds'

export const GET: APIRoute = async ({ site }) =>
  new Response(rssFeed(await getArticles(), site!), { headers: { 'Content-Type': `${FEEDS.rss.type}; charset=utf-8` } })
