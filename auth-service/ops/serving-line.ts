import { relative } from 'node:path'

/** Where the service keeps its credentials, as the serving line names it. */
export interface StoreWhere {
  redisUrl: string | undefined
  redisClusterNodes: readonly { host: string; port: number }[] | undefined
  dataDir: string
}

/**
 * Whether the service's own lines are for a person: a terminal, outside production. Elsewhere
 * (NODE_ENV=production, output to a file, a pipe or a log collector) every line stays JSON.
 */
export function forPerson(env: NodeJS.ProcessEnv, out: { isTTY?: boolean }): boolean {
  return env.NODE_ENV !== 'production' && out.isTTY === true
}

/** The one plain line that says where the site is: "Lattice Research is serving http://… (…)". */
export function servingLine(name: string, origin: string, store: StoreWhere, cwd = process.cwd()): string {
  return `${name} is serving ${origin} (${storeName(store, cwd)})`
}

function storeName(store: StoreWhere, cwd: string): string {
  if (store.redisClusterNodes) return `Redis Cluster of ${store.redisClusterNodes.length} seed nodes`
  if (store.redisUrl) {
    // The address only: a password in the URL stays out of the terminal.
    const { protocol, host } = new URL(store.redisUrl)
    return `Redis at ${protocol}//${host}`
  }
  const dir = relative(cwd, store.dataDir)
  const shown = dir === '' ? '.' : dir.startsWith('..') ? store.dataDir : `./${dir}`
  return `embedded store in ${shown}`
}
