import type { IncomingMessage, ServerResponse } from 'node:http'
import parseurl from 'parseurl'
import { match, type MatchFunction } from 'path-to-regexp'
import type { PreparedBody } from '../../post-index/post-index.ts'
import type { Scope } from '../auth/policy.ts'
import { ANONYMOUS, hasScope, type Principal, type ResolvePrincipal } from './bearer.ts'
import { preconditionsHold, sendPrepared } from './conditional.ts'
import { recordAnswer, recover, successHeaders, type FrontAnswerDeps, type FrontHandler } from './front.ts'
import type { ReadBudget } from './read-budget.ts'

/** The request as a read sees it: path parameters and Express's parsed query. */
export interface ReadInput {
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, unknown>>
}

/** A read of the protected resource, as the endpoint table describes it, with its built action. */
export interface ReadRoute {
  /** The Express path, also the metrics' route label. */
  path: string
  scope: Scope
  cacheControl: string | undefined
  read: (input: ReadInput) => PreparedBody
}

/**
 * Finds the read route of a path the way Express's router does (path-to-regexp, case-sensitive,
 * strict about a trailing slash, parameters decoded), so that both paths agree on what a URL means.
 */
export function readRouteMatcher(
  routes: readonly ReadRoute[],
): (path: string) => { route: ReadRoute; params: Record<string, string> } | undefined {
  // Paths without parameters are found with one exact lookup; the others with path-to-regexp.
  const fixed = new Map(routes.filter((r) => !r.path.includes(':')).map((r) => [r.path, r]))
  const NO_PARAMS = Object.freeze({}) as Record<string, string>
  const matchers: Array<[MatchFunction<Record<string, string>>, ReadRoute]> = routes
    .filter((r) => r.path.includes(':'))
    .map((r) => [match(r.path, { sensitive: true, trailing: false }), r])
  return (path) => {
    const plain = fixed.get(path)
    if (plain) return { route: plain, params: NO_PARAMS }
    for (const [matches, route] of matchers) {
      let found
      try {
        found = matches(path)
      } catch {
        return undefined // a malformed escape: the chain answers it
      }
      if (found) return { route, params: found.params }
    }
    return undefined
  }
}

export interface ReadPathDeps extends FrontAnswerDeps {
  /** Requests under this path are candidates (the protected resource). */
  prefix: string
  routes: readonly ReadRoute[]
  resolvePrincipal: ResolvePrincipal
  budget?: ReadBudget
  /** The name/value pair naming the build the answers come from (none before an index loads). */
  buildHeader?: () => string[]
  /** The app's own query parser (Express's `query parser fn`), so both paths read a query alike. */
  parseQuery: (query: string | null) => Record<string, unknown>
  /** The client's budget key, as the chain's `clientAddress` computes it behind the same proxies. */
  clientAddress: (req: IncomingMessage) => string
}

/**
 * The fast path of the API's reads, since they are most of the traffic. It runs in front of
 * Express (app.ts), so a read pays neither Express's per-request set-up nor its router: a
 * successful read is answered in one step with the same functions as the middleware chain (the
 * route table and its matcher, parseurl and the app's query parser, bearer and scope check, read
 * budget, the action's own parse and read, sendPrepared, request id and log line). Anything that
 * is not a success, errors included, goes to the chain untouched, which answers it in full;
 * test/http/read-path.test.ts checks that both give the same answers and that the fast path
 * does answer.
 */
export function readFastPath(deps: ReadPathDeps): FrontHandler {
  const find = readRouteMatcher(deps.routes)

  return function readFastPath(req, res, fallback) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url!.startsWith(deps.prefix)) {
      fallback()
      return
    }
    const started = performance.now()
    const url = parseurl(req)!
    const found = url.pathname ? find(url.pathname) : undefined
    if (!found) {
      fallback()
      return
    }
    const search = typeof url.query === 'string' ? url.query : null
    const authorization = req.headers.authorization
    // No credential is the common case: answered without waiting for a turn of the event loop.
    if (authorization === undefined) {
      try {
        answer(req, res, fallback, ANONYMOUS, found.route, found.params, search, started)
      } catch (err) {
        recover(res, fallback, err)
      }
      return
    }
    deps
      .resolvePrincipal(authorization)
      .then(
        (principal) => answer(req, res, fallback, principal, found.route, found.params, search, started),
        () => fallback(), // a refused credential: the chain answers with the 401
      )
      .catch((err: unknown) => recover(res, fallback, err))
  }

  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    fallback: () => void,
    principal: Principal,
    route: ReadRoute,
    params: Record<string, string>,
    search: string | null,
    started: number,
  ): void {
    if (!hasScope(principal, route.scope)) {
      fallback()
      return
    }
    let prepared: PreparedBody
    try {
      // The query is parsed only by reads that look at it, as Express parses it on access.
      prepared = route.read({
        params,
        get query() {
          return deps.parseQuery(search)
        },
      })
    } catch {
      fallback() // a refusal: the chain answers it
      return
    }
    // A failed precondition (412) is the chain's to answer, before the budget counts the read.
    if (!preconditionsHold(req, prepared)) {
      fallback()
      return
    }
    const decision = deps.budget?.take(principal, () => deps.clientAddress(req))
    if (decision && !decision.allowed) {
      fallback()
      return
    }

    const { headers, id } = successHeaders(deps, req, decision, deps.buildHeader?.())
    const status = sendPrepared(req, res, prepared, route.cacheControl, headers)
    recordAnswer(deps, req, id, route.path, status, started)
  }
}
