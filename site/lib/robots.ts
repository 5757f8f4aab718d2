/**
 * The publication's Content Signals (https://contentsignals.org/, an extension of robots.txt,
 * RFC 9309 §2.2.4): whether its pages may be used for search, as input to AI answers (ai-input)
 * and to train AI models (ai-train). One configuration value, `CONTENT_SIGNALS`, at build time;
 * by default search and AI answers that cite the articles are welcome, training is not.
 */
import { SITE_ENV_DEFAULTS } from '../../model/site-config.ts'

export const DEFAULT_CONTENT_SIGNALS = SITE_ENV_DEFAULTS.CONTENT_SIGNALS

const SIGNALS = ['search', 'ai-input', 'ai-train'] as const

/**
 * The value normalised (`name=yes|no`, comma-separated, in the canonical order; unset or empty:
 * the default), or an error naming the fix.
 */
export function contentSignals(value: string | undefined = process.env.CONTENT_SIGNALS): string {
  const given = new Map<string, string>()
  for (const part of (value?.trim() || DEFAULT_CONTENT_SIGNALS).split(',')) {
    const [name, answer, ...rest] = part.trim().split('=')
    if (!SIGNALS.includes(name as (typeof SIGNALS)[number]) || (answer !== 'yes' && answer !== 'no') || rest.length)
      throw new Error(
        `CONTENT_SIGNALS must be name=yes|no pairs for ${SIGNALS.join(', ')} ` +
          `(like "${DEFAULT_CONTENT_SIGNALS}"); got "${part.trim()}".`,
      )
    given.set(name!, answer)
  }
  return SIGNALS.filter((s) => given.has(s))
    .map((s) => `${s}=${given.get(s)}`)
    .join(', ')
}

/** robots.txt: every crawler allowed, the Content Signals of the publication, and the sitemap. */
export function robotsTxt(site: URL | string, signals: string = contentSignals()): string {
  return [
    '# Content Signals (https://contentsignals.org/): search = index and link to the articles,',
    '# ai-input = use them as input to AI answers, ai-train = train AI models on them.',
    'User-agent: *',
    ...(signals ? [`Content-Signal: ${signals}`] : []),
    'Allow: /',
    '',
    `Sitemap: ${new URL('/sitemap-index.xml', site)}`,
    '',
  ].join('\n')
}
