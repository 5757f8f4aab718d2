/**
 * Where the live build of one configuration is, shared by the build (which writes it) and the
 * service (which serves it). A build bakes BASE_URL into its pages, feed and sitemap and is made
 * from one CONTENT_DIR, so each configuration has its own link in DIST_DIR:
 * `<DIST_DIR>/sites/<configKey>`, swapped atomically by every build of that configuration.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** A build folder's record of what it was made for: BASE_URL, the config key, when it was built. */
export const BUILD_INFO_FILE = 'build.json'

export function configKey(baseUrl: string, contentDir: string): string {
  return createHash('sha256')
    .update(`${baseUrl}\0${resolve(contentDir)}`)
    .digest('hex')
    .slice(0, 16)
}

/** The link to the live build of this configuration (it may not exist). */
export function configBuildLink(distDir: string, baseUrl: string, contentDir: string): string {
  return join(distDir, 'sites', configKey(baseUrl, contentDir))
}

/**
 * The build a server with this BASE_URL serves: the one made for its BASE_URL and CONTENT_DIR,
 * else the latest made for its BASE_URL from any content folder (a replica that has no content
 * of its own, beside a builder). Never a build made for another BASE_URL: undefined then.
 */
export function findBuildFor(distDir: string, baseUrl: string, contentDir: string): string | undefined {
  const exact = configBuildLink(distDir, baseUrl, contentDir)
  if (builtFor(exact) === baseUrl) return exact
  let best: { link: string; builtAt: string } | undefined
  let names: string[] = []
  try {
    names = readdirSync(join(distDir, 'sites')).filter((n) => /^[0-9a-f]{16}$/.test(n))
  } catch {
    return undefined
  }
  for (const name of names) {
    const link = join(distDir, 'sites', name)
    const info = readInfo(link)
    if (info?.baseUrl === baseUrl && (!best || info.builtAt > best.builtAt)) best = { link, builtAt: info.builtAt }
  }
  return best?.link
}

function builtFor(link: string): string | undefined {
  return readInfo(link)?.baseUrl
}

function readInfo(link: string): { baseUrl: string; builtAt: string } | undefined {
  try {
    return JSON.parse(readFileSync(join(link, BUILD_INFO_FILE), 'utf8')) as { baseUrl: string; builtAt: string }
  } catch {
    return undefined
  }
}

/**
 * The authorization pages' template in a build folder, beside the site (not in it): the page
 * Astro built from site/pages/authorize-template.astro, whose `@@title@@` and `@@content@@` the
 * service fills for the consent page and its error page.
 */
export const AUTHORIZE_TEMPLATE = 'authorize.html'
