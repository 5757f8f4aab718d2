/**
 * The stats of files that were racy at the scan, recorded once the build has shown them settled.
 * A file changed within RACY_MS of the scan is not recorded (source-stats.ts): an edit made just
 * after could share its timestamps. After a clone or a generated corpus, that is every file
 * written in the last seconds before a cold build, and the next build, an edit's, read and hashed
 * them all again (11,509 files at 50,000: 2 s of a 3 s edit).
 *
 * The build reads each article again later (to render it, to write the post index) and checks
 * it is what was hashed (EntrySource.text). When that read began more than RACY_MS after the
 * file's last change, any later change would carry later timestamps; so if the file's stat is
 * still the scan's when the build lands, the file is as hashed and its stat may be recorded
 * (the rule of git's index, https://git-scm.com/docs/racy-git).
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { isRecordable, statSignature, type FileStat } from './source-stats.ts'

/** A read of an article that found it as the build hashed it: when it began, and the files it reads. */
export interface VerifiedRead {
  began: number
  inputs?: readonly string[]
}

/**
 * `scanned`'s stat signature if the file at `path` is settled as a read that began at `readBegan`
 * found it: that read began more than RACY_MS after the file's last change, and its stat is still
 * `scanned`; else undefined.
 */
export function settledStat(path: string, scanned: FileStat, readBegan: number): string | undefined {
  if (!isRecordable(scanned, readBegan)) return undefined
  const now = statSync(path, { throwIfNoEntry: false })
  const signature = statSignature(scanned)
  return now && statSignature(now) === signature ? signature : undefined
}

/**
 * Adds to `signatures` (per slug, as readSources records them) the stat signature of each article
 * the scan found racy (`stats`, by file name) that a read since (`verified`, per slug) shows
 * settled, with its inputs' part (ArticleInputs.settledSignature): none while one of those is
 * racy. Returns how many it recorded.
 */
export function recordSettled(
  contentDir: string,
  stats: ReadonlyMap<string, FileStat>,
  signatures: Record<string, string>,
  verified: ReadonlyMap<string, VerifiedRead>,
  inputs: { settledSignature(files: readonly string[] | undefined): string | undefined },
): number {
  let recorded = 0
  for (const [slug, read] of verified) {
    if (signatures[slug] !== undefined) continue
    const scanned = stats.get(`${slug}.md`)
    const own = scanned && settledStat(join(contentDir, `${slug}.md`), scanned, read.began)
    const theirs = own && inputs.settledSignature(read.inputs)
    if (theirs === undefined || !own) continue
    signatures[slug] = own + theirs
    recorded++
  }
  return recorded
}
