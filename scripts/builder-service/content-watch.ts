/**
 * The article files' stats, kept by a warm builder between builds, so that an edit's build
 * stats the files that changed instead of every file (at 50,000 articles, half a second of the
 * build on a slow machine, more on a busy one). The builder stats the content folder while it is
 * idle, after an inotify watch on the folder has started (fs.watch;
 * https://man7.org/linux/man-pages/man7/inotify.7.html): a file the watch names since then is
 * stat'ed again by the build, every other file's stat is the one taken while idle.
 *
 * A build is given these stats only when the watch can be trusted to have seen every change,
 * and otherwise stats every file, as without a builder:
 * - on Linux, and on a local file system (inotify does not see a change made by another machine
 *   to a network or FUSE file system);
 * - the folder watched is the build's, the same directory (not one put in its place);
 * - fewer events since the idle stat than could overflow the kernel's queue (an overflow drops
 *   events, and libuv does not report it): one that overflowed held max_queued_events, all of
 *   them delivered after the stat began, so the count shows it;
 * - a barrier: the builder writes a file in a second folder watched through the same inotify
 *   instance (libuv has one per event loop) and waits for its event. An instance's events are
 *   delivered in order, so every change made before the build was asked for has been seen.
 * A symbolic link or a file with other hard links can change without an event in this folder:
 * each is stat'ed by every build.
 */
import { type FSWatcher, lstatSync, readFileSync, rmSync, statSync, statfsSync, watch, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import {
  type ContentListing,
  type ContentScan,
  type FileStat,
  listContent,
  statFiles,
  unpackStats,
} from '../builder/source-stats.ts'

/**
 * statfs f_type of the local file systems whose inotify events cover every change
 * (statfs(2), https://man7.org/linux/man-pages/man2/statfs.2.html): ext2/3/4, XFS, Btrfs,
 * tmpfs, F2FS, ZFS.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0xf2f52010, 0x2fc12fc1])

/** Events since the idle stat past which the build stats every file (and the builder again, idle). */
export const MAX_EVENTS = 1000

/** How long a build waits for its barrier's event before it stats every file. */
export const BARRIER_MS = 1000

/** The stats taken while idle, and when. */
interface Generation {
  /** When the listing began: the scan's scannedAt, so that a stat taken then is judged as of then. */
  startedAt: number
  /** The event count when it began: a name with a later event is stat'ed again. */
  seq: number
  /** Of the article files that are neither symbolic links nor hard-linked elsewhere. */
  stats: Map<string, FileStat>
}

export class ContentWatch {
  readonly #dir: string
  readonly #home: string
  readonly #limit: number
  #content: FSWatcher | undefined
  #barriers: FSWatcher | undefined
  #identity = ''
  #broken = true
  #seq = 0
  /** Per file name, the count at its last event. */
  #events = new Map<string, number>()
  #generation: Generation | undefined
  #waiting = new Map<string, () => void>()
  #barrierCount = 0

  /**
   * A watch of `contentDir`, its barriers written in `home` (a folder of the builder's own), or
   * undefined where the watch could not be trusted (not Linux, a file system not known local).
   */
  static start(contentDir: string, home: string): ContentWatch | undefined {
    if (process.platform !== 'linux') return undefined
    const limit = eventLimit()
    if (limit === undefined) return undefined
    try {
      if (!LOCAL_FILE_SYSTEMS.has(statfsSync(contentDir).type)) return undefined
    } catch {
      return undefined
    }
    const w = new ContentWatch(resolve(contentDir), home, limit)
    w.refresh()
    return w
  }

  private constructor(dir: string, home: string, limit: number) {
    this.#dir = dir
    this.#home = home
    this.#limit = limit
  }

  /** Whether a file changed since the idle stat, or the watch must start again: refresh() then. */
  get stale(): boolean {
    return (
      this.#broken ||
      this.#generation === undefined ||
      this.#seq !== this.#generation.seq ||
      identityOf(this.#dir) !== this.#identity
    )
  }

  /**
   * While idle: (re)starts the watch if it ended, then stats every article file. Stats taken
   * after the watch began, so that a change made meanwhile has its event.
   */
  refresh(): void {
    try {
      if (this.#broken || identityOf(this.#dir) !== this.#identity) this.#watch()
      const startedAt = Date.now()
      const seq = this.#seq
      // A symbolic link or a file with other hard links can change with no event here: it is
      // left out, and every build stats it.
      // The build's own rule for which files are articles (source-stats.ts).
      const stats = new Map<string, FileStat>()
      for (const name of listContent(this.#dir).names) {
        const s = lstatSync(join(this.#dir, name), { throwIfNoEntry: false })
        if (s?.isFile() && s.nlink === 1)
          stats.set(name, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino })
      }
      this.#generation = { startedAt, seq, stats }
      // Events the generation's stats already show.
      for (const [name, at] of this.#events) if (at <= seq) this.#events.delete(name)
    } catch {
      this.#generation = undefined
      this.#unwatch()
    }
  }

  /**
   * The build's scan (BuildOptions.scan): `listing`'s files with their stats, only the changed
   * ones stat'ed now; undefined when the watch cannot vouch for the others.
   */
  readonly scan = async (contentDir: string, listing: ContentListing): Promise<ContentScan | undefined> => {
    if (resolve(contentDir) !== this.#dir || !this.#trusted()) return undefined
    if (!(await this.#barrier()) || !this.#trusted()) return undefined
    const g = this.#generation!
    const stats = new Map<string, FileStat>()
    const again: string[] = []
    for (const name of listing.names) {
      const at = this.#events.get(name)
      const idle = g.stats.get(name)
      if (idle && !(at !== undefined && at > g.seq)) stats.set(name, idle)
      else again.push(name)
    }
    for (const [name, stat] of unpackStats(again, statFiles(this.#dir, again))) stats.set(name, stat)
    // The build judges every stat as of the idle one's time: a file changed since is not recorded as
    // unchanged until a later stat (source-stats.ts, recordableSignature).
    return { ...listing, stats, scannedAt: Math.min(listing.scannedAt, g.startedAt), restated: again.length }
  }

  close(): void {
    this.#unwatch()
    for (const done of this.#waiting.values()) done()
    this.#waiting.clear()
  }

  #trusted(): boolean {
    return (
      !this.#broken &&
      this.#generation !== undefined &&
      this.#seq - this.#generation.seq < this.#limit &&
      identityOf(this.#dir) === this.#identity
    )
  }

  #watch(): void {
    this.#unwatch()
    this.#identity = identityOf(this.#dir) ?? ''
    const self = basename(this.#dir)
    const content = watch(this.#dir, { persistent: false }, (_type, name) => {
      this.#seq++
      // The folder itself moved or went: its watch may have ended. Started again when idle.
      if (typeof name !== 'string' || name === self) this.#broken = true
      else this.#events.set(name, this.#seq)
    })
    content.on('error', () => {
      this.#broken = true
    })
    this.#content = content
    const barriers = watch(this.#home, { persistent: false }, (_type, name) => {
      if (typeof name === 'string') this.#waiting.get(name)?.()
    })
    barriers.on('error', () => {
      this.#broken = true
    })
    this.#barriers = barriers
    this.#broken = false
  }

  #unwatch(): void {
    this.#content?.close()
    this.#barriers?.close()
    this.#content = this.#barriers = undefined
    this.#broken = true
  }

  /** Resolves true once every event queued before it has been delivered; false after BARRIER_MS. */
  #barrier(): Promise<boolean> {
    const name = `barrier-${++this.#barrierCount}`
    const file = join(this.#home, name)
    return new Promise<boolean>((done) => {
      const finish = (seen: boolean) => {
        clearTimeout(timer)
        this.#waiting.delete(name)
        rmSync(file, { force: true })
        done(seen)
      }
      const timer = setTimeout(() => finish(false), BARRIER_MS)
      this.#waiting.set(name, () => finish(!this.#broken))
      try {
        writeFileSync(file, '')
      } catch {
        finish(false)
      }
    })
  }
}

/** The folder's device and inode: another folder put at its path is not the one watched. */
function identityOf(dir: string): string | undefined {
  try {
    const s = statSync(dir)
    return s.isDirectory() ? `${s.dev}:${s.ino}:${s.birthtimeMs}` : undefined
  } catch {
    return undefined
  }
}

/** MAX_EVENTS, or fewer where the kernel's queue is smaller; undefined when it cannot be read. */
function eventLimit(): number | undefined {
  try {
    const queued = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'))
    return queued > 1 ? Math.min(MAX_EVENTS, Math.floor(queued / 2)) : undefined
  } catch {
    return undefined
  }
}
