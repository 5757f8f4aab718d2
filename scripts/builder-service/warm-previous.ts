/**
 * The live build's state and its post index's lines, read while a warm builder is idle (after it
 * started, and after each build), for its next build to start from. At 50,000 articles the reads
 * are over a second of a build's time (the 34 MB state parsed into every article's record, the
 * 27 MB index split into lines), which an edit then does not wait for.
 *
 * A read state is handed out once and only while it is still the live build's: the same build
 * folder, whose state file and templates are the same files (a landed build's files are never
 * written again, scripts/builder/dist.ts). Otherwise, as after a build by another process, the
 * build reads the live state itself, as without a warm builder (and stats as it does then).
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { AUTHORIZE_TEMPLATE } from '../../model/build-dir.ts'
import { keptEntries } from '../../post-index/index-file-writer.ts'
import { liveBuildDir } from '../builder/dist.ts'
import { readPrevious, type Previous } from '../builder/previous.ts'
import { STATE_FILE } from '../builder/state-file.ts'

interface Slot {
  distDir: string
  key: string
  stamp: string
  previous: Previous
}

/** The files' identities a read depended on, and the folder they are in; undefined when one is missing. */
function stampOf(dir: string): string | undefined {
  try {
    const parts = [dir]
    for (const name of [STATE_FILE, 'template.html', AUTHORIZE_TEMPLATE]) {
      const s = statSync(join(dir, name))
      parts.push(`${s.ino}:${s.size}:${s.mtimeMs}`)
    }
    return parts.join('\0')
  } catch {
    return undefined
  }
}

export class WarmPrevious {
  private slot: Slot | undefined

  /** Reads the live build of `key` now, unless it is already held. */
  prime(distDir: string, key: string): void {
    const dir = liveBuildDir(distDir, key)
    const stamp = dir && stampOf(dir)
    if (!stamp) return
    if (this.slot && this.slot.distDir === distDir && this.slot.key === key && this.slot.stamp === stamp) return
    this.slot = undefined
    const previous = readPrevious(distDir, key)
    // A build that landed during the read: that state is read when it is asked for.
    if (!previous || previous.dir !== dir || stampOf(dir) !== stamp) return
    // And its post index's lines, which an edit's build keeps: a landed entries file is never
    // written again (its bodies file is only appended to, after the bytes its lines point to).
    previous.index = keptEntries(dir)
    this.slot = { distDir, key, stamp, previous }
  }

  /**
   * The held live build, for a build to start from (BuildOptions.previous), when it is still the
   * live one; else undefined, and the build reads the live state itself.
   */
  readonly take = (distDir: string, key: string): Previous | undefined => {
    const slot = this.slot
    // A build may change what it was given: it is never given again.
    this.slot = undefined
    if (!slot || slot.distDir !== distDir || slot.key !== key) return undefined
    const dir = liveBuildDir(distDir, key)
    return dir === slot.previous.dir && stampOf(dir) === slot.stamp ? slot.previous : undefined
  }

  /** Whether a read state is held (tests, and the builder's line when it is ready). */
  get held(): boolean {
    return this.slot !== undefined
  }
}
