import { chmodSync } from 'node:fs'

/**
 * Makes a file readable by its owner only (0600), as every file of DATA_DIR should be. A file this
 * process may use but does not own (an operator's mount, a read-only volume) keeps its mode:
 * tightening it is not worth refusing to start.
 */
export function tightenToOwner(path: string): void {
  try {
    chmodSync(path, 0o600)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'EPERM' && code !== 'EROFS') throw e
  }
}
