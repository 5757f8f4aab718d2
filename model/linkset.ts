/**
 * An article's linkset (RFC 9264): every FAIR Signposting link of its resources, each under the
 * resource it is a link of (its anchor): the landing page's set, the metadata documents'
 * `describes` and the markdown twin's `collection`, as signposting.org's level 2 asks. Written
 * by the build beside the page in both formats, served at `/posts/<slug>.linkset.json` and
 * `/posts/<slug>.linkset`.
 */
import { articleUrl } from './article-address.ts'
import {
  articleSignposts,
  describedBy,
  collectionLink,
  describesLink,
  quoted,
  targetAttributes,
  type SignpostSource,
  type TypedLink,
} from './signposting.ts'

/** The links of one resource: its URL and its typed links. */
export interface LinkContext {
  anchor: string
  links: TypedLink[]
}

/** The article's link contexts: its page first, then the metadata documents, then the twin. */
export function articleLinkset(a: SignpostSource, baseUrl: string): LinkContext[] {
  return [
    { anchor: articleUrl(baseUrl, a.slug), links: articleSignposts(a, baseUrl) },
    ...describedBy(a).map((form) => ({
      anchor: articleUrl(baseUrl, a.slug, form),
      links: [describesLink(baseUrl, a.slug)],
    })),
    { anchor: articleUrl(baseUrl, a.slug, 'md'), links: [collectionLink(baseUrl, a.slug)] },
  ]
}

/**
 * RFC 9264 §4.2: `{"linkset": [context, …]}`, each context an object of its `anchor` and, per
 * relation type (all of these are registered, so named as such: §4.2.2), the array of its
 * target objects (`href`, and `type` as a target attribute: §4.2.4).
 */
export function linksetJson(contexts: readonly LinkContext[]): string {
  const linkset = contexts.map(({ anchor, links }) => {
    const context: Record<string, unknown> = { anchor }
    for (const { rel, href, type, profile } of links) {
      const targets = (context[rel] as object[] | undefined) ?? []
      targets.push({ href, ...(type ? { type } : {}), ...(profile ? { profile } : {}) })
      context[rel] = targets
    }
    return context
  })
  return `${JSON.stringify({ linkset }, null, 2)}\n`
}

/**
 * RFC 9264 §4.1: the Link header's syntax (RFC 8288 §3), each link with its `anchor`, one link
 * a line (the format allows a line break after each comma).
 */
export function linksetText(contexts: readonly LinkContext[]): string {
  const lines = contexts.flatMap(({ anchor, links }) =>
    links.map((l) => `<${l.href}>; rel=${quoted(l.rel)}${targetAttributes(l)}; anchor=${quoted(anchor)}`),
  )
  return `${lines.join(',\n')}\n`
}
