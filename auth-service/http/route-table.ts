import { match, type MatchFunction } from 'path-to-regexp'

/** What the table knows of a row to find it: its method and its path (`:name` parameters). */
export interface Routed {
  method: 'GET' | 'POST'
  path: string
}

/** Where a request lands in the table. */
export type Place<R extends Routed> =
  | { row: R; params: Record<string, string> }
  /** The path is a row's, but not for this method: a 405 with this `Allow`; `path` is the row's path. */
  | { allow: string; path: string }
  /** Under the API's namespaces, but no row's path: a JSON 404. */
  | { unknown: true }

const NO_PARAMS = Object.freeze({}) as Record<string, string>

/**
 * Finds a request's row the way the table means its paths: case-sensitive, strict about a
 * trailing slash, parameters decoded (path-to-regexp, as Express's router). GET rows answer HEAD
 * too. Paths outside every row and namespace (the site's pages) give undefined. The path must
 * decode (the pipeline refuses one that does not first).
 */
export function routeTable<R extends Routed>(
  rows: readonly R[],
): (method: string, path: string) => Place<R> | undefined {
  const byPath = new Map<string, R[]>()
  for (const r of rows) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r])
  // Paths without parameters are found with one exact lookup; the others with path-to-regexp.
  const fixed = new Map([...byPath].filter(([path]) => !path.includes(':')))
  const matchers: Array<[MatchFunction<Record<string, string>>, R[]]> = [...byPath]
    .filter(([path]) => path.includes(':'))
    .map(([path, list]) => [match(path, { sensitive: true, trailing: false }), list])
  const allow = allowedMethods(rows)
  const { folders, files } = namespacesOf(rows)

  const pick = (list: R[], params: Record<string, string>, method: string): Place<R> => {
    const wanted = method === 'HEAD' ? 'GET' : method
    const row = list.find((r) => r.method === wanted)
    return row ? { row, params } : { allow: allow.get(list[0]!.path)!, path: list[0]!.path }
  }

  return (method, path) => {
    const plain = fixed.get(path)
    if (plain) return pick(plain, NO_PARAMS, method)
    for (const [matches, list] of matchers) {
      const found = matches(path)
      if (found) return pick(list, found.params, method)
    }
    const inside =
      folders.some((f) => path === f || path.startsWith(`${f}/`)) || files.some((f) => path === f || path === `${f}/`)
    return inside ? { unknown: true } : undefined
  }
}

/** Each path with the methods it answers (RFC 9110 §10.2.1 `Allow`): HEAD beside GET, as a GET row answers both. */
export function allowedMethods(rows: readonly Routed[]): Map<string, string> {
  const methods = new Map<string, string[]>()
  for (const r of rows)
    methods.set(r.path, [...(methods.get(r.path) ?? []), ...(r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])])
  return new Map([...methods].map(([path, list]) => [path, list.join(', ')]))
}

/**
 * The first segment of every row's path: requests under one of these are the API's (CORS, JSON
 * errors); a segment that is a folder (`/api/…`) answers its unknown paths with a JSON 404.
 */
export function namespacesOf(rows: readonly Routed[]): { folders: string[]; files: string[] } {
  const first = new Set<string>()
  const folders = new Set<string>()
  for (const r of rows) {
    const [, head, ...rest] = r.path.split('/')
    first.add(`/${head}`)
    if (rest.length > 0) folders.add(`/${head}`)
  }
  return { folders: [...folders], files: [...first].filter((p) => !folders.has(p)) }
}
