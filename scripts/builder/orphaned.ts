/**
 * For a build's helper process: exit when the build that started it is gone, rather than write
 * what nobody will use. The build names itself (its pid, an argument), since it may be gone
 * before this process has started far enough to look.
 */
export function stopWhenOrphaned(parent: number): void {
  const orphaned = () => process.ppid !== parent && process.exit(1)
  orphaned()
  setInterval(orphaned, 500).unref()
}
