/** One author's Atom feed: their newest articles, as the site's feed carries the newest of all. */
import type { APIRoute, GetStaticPaths } from 'astro'
import { getArticles } from '../../../lib/articles'
import { listMade } from '../../../lib/changed-cards'
import { authorFeedPath, authorSlugPath, siteAuthors, type SiteAuthor } from '../../../lib/authors'
import { FEEDS, atomFeed } from '../../../lib/feeds'
import { SITE } from '../../../lib/site'

export const getStaticPaths = (async () =>
  siteAuthors(await getArticles())
    .filter((author) => listMade(author.articles))
    .map((author) => ({ params: { author: author.slug }, props: { author } }))) satisfies GetStaticPaths

export const GET: APIRoute = ({ props, site }) => {
  const { author } = props as { author: SiteAuthor }
  const channel = {
    title: `${author.name} · ${SITE.name}`,
    subtitle: `Articles by ${author.name}.`,
    self: authorFeedPath(author.slug),
    page: authorSlugPath(author.slug),
  }
  return new Response(atomFeed(author.articles, site!, channel), {
    headers: { 'Content-Type': `${FEEDS.atom.type}; charset=utf-8` },
  })
}
