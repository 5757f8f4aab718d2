/**
 * Bounds of what the build and the service write that no single field's rule bounds: the site's
 * origin, an absolute URL, an article's body. The OpenAPI document declares them as maxLength.
 */

/** The longest origin: `https://`, a DNS name of 253 characters (RFC 1035 §2.3.4) and `:65535`. */
export const ORIGIN_MAX = 'https://'.length + 253 + ':65535'.length

/** The longest URL a front-matter field may hold (a common limit of browsers and proxies). */
export const URL_MAX = 2048

/**
 * The longest absolute URL sent: the origin, then a path and query of at most URL_MAX characters
 * (a writer's image path, a next page's query), each of which percent-encoding may make three.
 */
export const SENT_URL_MAX = ORIGIN_MAX + 3 * URL_MAX

/** The longest article body, in characters: far past any article, short of a runaway file. */
export const BODY_MAX = 2_000_000
