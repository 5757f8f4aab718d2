/**
 * A server that cannot listen says why in one line a person can act on, instead of a stack:
 * the port is taken, or needs privileges.
 */
export function explainListenError(e: unknown): string | undefined {
  const { code, port } = e as NodeJS.ErrnoException & { port?: number }
  const other = port === 4321 ? 8080 : 4321
  if (code === 'EADDRINUSE')
    return (
      `Port ${port} is already in use: stop what listens there, ` +
      `or choose another port, e.g. PORT=${other} npm start`
    )
  if (code === 'EACCES')
    return `Port ${port} needs privileges this user lacks: choose a port above 1023, e.g. PORT=${other} npm start`
  return undefined
}

/** Ends the process with that line (exit status 1) when it explains `e`; otherwise rethrows. */
export function exitOnListenError(e: unknown): never {
  const line = explainListenError(e)
  if (!line) throw e
  console.error(line)
  process.exit(1)
}
