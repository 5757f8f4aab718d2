/**
 * Runs one build at a time. Changes that arrive during a build are gathered and answered by one
 * more build when it ends, so a burst of saves costs at most two builds, never a queue of them.
 */
export function createRebuildLoop<T>(
  build: (files: string[]) => Promise<T>,
  onBuilt: (outcome: T, changed: string[]) => void | Promise<void>,
): { changed(files: string[]): void; idle(): Promise<void> } {
  let pending = new Set<string>()
  let wanted = false
  let running: Promise<void> | undefined

  const drain = async () => {
    while (wanted) {
      wanted = false
      const files = [...pending]
      pending = new Set()
      const outcome = await build(files)
      await onBuilt(outcome, files)
    }
    running = undefined
  }

  return {
    /** Asks for a build covering these files (none: a build all the same, as at start). */
    changed(files) {
      for (const f of files) pending.add(f)
      wanted = true
      running ??= drain()
    },
    /** Resolves once no build is running or waiting. */
    async idle() {
      while (running) await running
    },
  }
}
