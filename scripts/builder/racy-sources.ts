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

/**
 * Adds to `signatures` (per slug, as readSources records them) the stat signature of each file
 * the scan found racy that `verifiedAt` (per slug, when a read that found it as hashed began)
 * shows settled, and whose stat in `contentDir` is still `stats`' (by file name).
 * `inputsSignature` gives what an article's signature adds for the files it reads (undefined
 * while one of them is racy: then none is recorded). Returns how many it recorded.
 */
export function recordSettled(
  contentDir: string,
  stats: ReadonlyMap<string, FileStat>,
  signatures: Record<string, string>,
  verifiedAt: ReadonlyMap<string, number>,
  inputsSignature: (slug: string) => string | undefined,
): number {
  let recorded = 0
  for (const [slug, at] of verifiedAt) {
    if (signatures[slug] !== undefined) continue
    const file = `${slug}.md`
    const scanned = stats.get(file)
    if (!scanned || !isRecordable(scanned, at)) continue
    const now = statSync(join(contentDir, file), { throwIfNoEntry: false })
    if (!now || statSignature(now) !== statSignature(scanned)) continue
    const inputs = inputsSignature(slug)
    if (inputs === undefined) continue
    signatures[slug] = statSignature(scanned) + inputs
    recorded++
  }
  return recorded
}
