/**
 * Whether a process of this machine runs: kill(2) with signal 0 checks without signalling. EPERM
 * means it runs as another user. Used for the records and locks left by servers, warm builders
 * and builds, which a dead process's successor takes over.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
