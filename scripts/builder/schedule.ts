/**
 * Scheduled articles: an article whose date is still to come is validated and rendered, but not
 * published (not listed, served, in the feeds, the sitemap, llms.txt, OAI, search or the API)
 * until its date arrives, as Hugo (without --buildFuture) and Ghost's scheduling do. A date is a
 * calendar date, so it arrives at 00:00 UTC that day. The build records the earliest such instant
 * in build.json (`nextPublication`); whoever serves the build runs the build again then
 * (scripts/publish-schedule.ts).
 */
import type { ArticleMeta } from './content.ts'

/**
 * The build's clock. LATTICE_CLOCK_OFFSET_MS moves it (tests only: a date's arrival is tested by
 * setting the clock a few seconds short of it, in every process the test starts).
 */
export function buildClock(env: NodeJS.ProcessEnv): () => number {
  const offset = Number(env.LATTICE_CLOCK_OFFSET_MS ?? 0)
  return Number.isFinite(offset) && offset !== 0 ? () => Date.now() + offset : Date.now
}

/** The instant an article is published: its date (00:00 UTC of its calendar day). */
export const publishesAt = (m: Pick<ArticleMeta, 'date'>): number => Date.parse(m.date)

/** Whether the article is built but not published: not a draft, and dated after `now`. */
export const isPublished = (m: Pick<ArticleMeta, 'draft' | 'scheduled'>): boolean => !m.draft && !m.scheduled

/**
 * Marks each article scheduled or not at `now` (the same object when its mark is unchanged: the
 * manifest's key compares the live build's objects first), and finds the next instant one is due.
 */
export function markScheduled(
  metas: readonly ArticleMeta[],
  now: number,
): { metas: ArticleMeta[]; nextPublication: number | undefined } {
  let next: number | undefined
  const marked = metas.map((m): ArticleMeta => {
    const at = publishesAt(m)
    const scheduled = !m.draft && at > now
    if (scheduled && (next === undefined || at < next)) next = at
    if (scheduled === (m.scheduled === true)) return m
    if (scheduled) return { ...m, scheduled: true as const }
    const { scheduled: _scheduled, ...rest } = m
    return rest
  })
  return { metas: marked, nextPublication: next }
}

/**
 * What the build publishes: every article not a draft and not scheduled; with SHOW_SCHEDULED=true
 * (the live preview, `npm run dev`) the scheduled ones too, each page marked as such.
 */
export function publishedArticles(metas: readonly ArticleMeta[], env: NodeJS.ProcessEnv): ArticleMeta[] {
  const showScheduled = env.SHOW_SCHEDULED === 'true'
  return metas.filter((m) => !m.draft && (showScheduled || !m.scheduled))
}

/** The banner over a scheduled article's page in the preview. */
export function scheduledBanner(m: Pick<ArticleMeta, 'date' | 'scheduled'>, display: (d: Date) => string): string {
  if (!m.scheduled) return ''
  return (
    `<p class="scheduled-banner" role="note"><strong>Scheduled:</strong> published on ` +
    `${display(new Date(m.date))} (00:00 UTC). Until then only this preview shows it.</p>`
  )
}
