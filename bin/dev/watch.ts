import { watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'

export interface WatchTarget {
  dir: string
  recursive: boolean
  /** Which file names matter (relative to `dir`): editors' swap and backup files do not. */
  accept: (name: string) => boolean
}

/**
 * Watches folders and reports the files that changed, once a burst of events has been quiet
 * for `debounceMs` (an editor's save is often a write, a rename and a chmod).
 */
export function watchSources(
  targets: readonly WatchTarget[],
  onChange: (files: string[]) => void,
  onError: (error: Error) => void,
  debounceMs = 30,
): () => void {
  let batch = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    timer = undefined
    const files = [...batch]
    batch = new Set()
    onChange(files)
  }
  const watchers: FSWatcher[] = []
  for (const t of targets) {
    try {
      const watcher = watch(t.dir, { recursive: t.recursive, persistent: true }, (_event, name) => {
        // Some platforms omit the name; a change is still a change.
        if (name !== null && !t.accept(name)) return
        batch.add(name === null ? t.dir : join(t.dir, name))
        clearTimeout(timer)
        timer = setTimeout(flush, debounceMs)
      })
      watchers.push(watcher.on('error', onError))
    } catch (e) {
      // A missing folder: the build reports it too; the rest of the preview keeps working.
      onError(e as Error)
    }
  }
  return () => {
    clearTimeout(timer)
    for (const w of watchers) w.close()
  }
}

/** A markdown article, not a hidden file or an editor's temporary copy (`.x.md.swp`, `x.md~`). */
export const isArticleFile = (name: string) => /^[^./][^/]*\.md$/.test(name)

/** A bibliography or citation style beside the articles (docs/writing.md, citing): its articles render again. */
export const isReferenceFile = (name: string) => /^[^./][^/]*\.(bib|json|csl)$/.test(name)

/** Any source file of the site, not an editor's temporary copy. */
export const isSourceFile = (name: string) => !/(^|\/)\.|~$|\.swp$/.test(name)
