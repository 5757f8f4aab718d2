import type { APIRoute } from 'astro'
import { getArticles } from '../lib/articles'
import { FEEDS, atomFeed } from '../lib/feeds'

export const GET: APIRoute = async ({ site }) =>
  new Response(atomFeed(await getArticles(), site!), {
    headers: { 'Content-Type': `${FEEDS.atom.type}; charset=utf-8` },
  })
