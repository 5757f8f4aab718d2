/**
 * The resident memory of every process in a session, as a user's terminal holds a command and
 * everything it starts (npm included): summed, and by part (npm, the build, Astro, Pagefind…).
 * Read from /proc (proc(5): the session is field 6 of /proc/<pid>/stat, VmRSS in its status;
 * a process's threads are in its VmRSS).
 */
import { readdirSync, readFileSync } from 'node:fs'

/** The parts of a build, by what their command line runs. */
const PARTS: Array<[RegExp, string]> = [
  // The shell npm runs a script in, before the script's own command line.
  [/^(\S*\/)?sh -c /, 'sh'],
  [/search-shard-worker/, 'search shard'],
  [/search-score-worker/, 'search scores'],
  [/astro\.mjs/, 'astro'],
  [/pagefind/, 'pagefind'],
  [/bin\/build\.[jt]s/, 'build'],
  // npm start's warm builder, which runs npm run build when it is up (scripts/builder-service/).
  [/warm-builder\.js/, 'warm builder'],
  [/npm/, 'npm'],
]

export function partOf(cmdline: string): string {
  for (const [pattern, part] of PARTS) if (pattern.test(cmdline)) return part
  // Any other program by its name; a Node script by its file's.
  const [program = '', ...args] = cmdline.split(' ').map((arg) => arg.split('/').pop() ?? '')
  const script = program === 'node' ? args.find((arg) => arg && !arg.startsWith('-')) : undefined
  return script ? `node ${script}` : program || 'other'
}

/**
 * Each part's resident memory in the session `sid`, in MB, summed over its processes; `into`
 * adds them to parts already counted, and `keep` chooses the parts.
 */
export function sessionRss(
  sid: number,
  into = new Map<string, number>(),
  keep: (part: string) => boolean = () => true,
): Map<string, number> {
  const parts = into
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // After the command's closing parenthesis: state, ppid, pgrp, session.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]) !== sid) continue
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (!rss) continue
      const part = partOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))
      if (!keep(part)) continue
      parts.set(part, (parts.get(part) ?? 0) + Number(rss[1]) / 1024)
    } catch {
      // the process ended meanwhile
    }
  }
  return parts
}

/**
 * In `npm start`'s session, the parts a build run by its warm builder is made of: the builder
 * and the processes it starts (Astro, the search shards), not the server nor npm.
 */
const isBuildPart = (part: string) => !['npm', 'sh', 'node start.js'].includes(part)

/** The session's peak, what each part held at that moment, and each part's own peak. */
export class SessionPeak {
  peakMb = 0
  atPeak = new Map<string, number>()
  partPeaks = new Map<string, number>()

  /** Samples the session `sid`, and the build's parts in the session `server` (see buildParts). */
  sample(sid: number, server?: number): void {
    const parts = sessionRss(sid)
    if (server !== undefined) sessionRss(server, parts, isBuildPart)
    const total = [...parts.values()].reduce((a, b) => a + b, 0)
    if (total > this.peakMb) {
      this.peakMb = total
      this.atPeak = parts
    }
    for (const [part, mb] of parts) this.partPeaks.set(part, Math.max(this.partPeaks.get(part) ?? 0, mb))
  }

  /** "build 276, astro 1074, npm 60 (each's own peak: build 1094, …)", in MB. */
  describe(): string {
    const list = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .map(([part, mb]) => `${part} ${mb.toFixed(0)}`)
        .join(', ')
    return `at the peak: ${list(this.atPeak)}; each part's own peak: ${list(this.partPeaks)}`
  }
}
