import { ProtocolError, Server, type ServerContext } from '@modelcontextprotocol/server'
import { RPC_CODES, RpcError } from './rpc-error.ts'

/**
 * The SDK's low-level Server, whose refusals of a request's params read as a sentence. The SDK
 * checks params against its schemas before a handler runs, and reports a mismatch with the
 * validator's dump: for most methods as -32603, an internal error, though the client is at
 * fault. Here the dump becomes -32602, Invalid params (JSON-RPC 2.0 §5.1), naming each field and
 * what it must be. `_wrapHandler` is the SDK's hook for subclasses to wrap every handler.
 */
export class RefusingServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: Parameters<Server['_wrapHandler']>[1],
  ): ReturnType<Server['_wrapHandler']> {
    const wrapped = super._wrapHandler(method, handler)
    return async (request, ctx: ServerContext) => {
      try {
        return await wrapped(request, ctx)
      } catch (e) {
        throw readableRefusal(method, e)
      }
    }
  }
}

/** One issue of a validator's dump, as the SDK's zod writes it. */
interface Issue {
  path: (string | number)[]
  message: string
}

/**
 * The SDK's refusal of a request's params as -32602 with a sentence, or the error as it was.
 * Our handlers' own errors are RpcErrors already (server.ts guard); a plain Error, or the SDK's
 * "Invalid tools/call request", is its schema check, whose message is the list of issues.
 */
function readableRefusal(method: string, e: unknown): unknown {
  if (!(e instanceof Error) || e instanceof RpcError) return e
  if (e instanceof ProtocolError && !e.message.startsWith(`Invalid ${method} request: `)) return e
  const issues = issuesOf(e.message)
  if (!issues) return e
  const said = issues.slice(0, 3).map((issue) => {
    const field = issue.path.filter((p) => p !== 'params').join('.') || 'params'
    return `"${field.slice(0, 60)}": ${issue.message.replace(/^Invalid input: /, '').slice(0, 160)}`
  })
  return new RpcError(RPC_CODES.invalidParams, `Invalid params for ${method.slice(0, 60)}: ${said.join('; ')}.`)
}

function issuesOf(message: string): Issue[] | undefined {
  const start = message.indexOf('[')
  if (start < 0) return undefined
  try {
    const issues = JSON.parse(message.slice(start)) as unknown
    if (!Array.isArray(issues) || issues.length === 0) return undefined
    const valid = issues.every((i: Partial<Issue>) => Array.isArray(i?.path) && typeof i.message === 'string')
    return valid ? (issues as Issue[]) : undefined
  } catch {
    return undefined
  }
}

/** A refusal as the log records it: the rule's code and what the client was told. */
export interface Refusal {
  code: string | number
  message: string
}

// The SDK's handler reports a refused request as `Rejected … request (<rule>): <why>`.
const REJECTED = /^Rejected [\w-]+ request[^(]*\(([\w-]+)\): /

/**
 * Whether an error the SDK reports (its `onerror`) is the refusal of a client's request, which it
 * has answered (a JSON-RPC error, a 4xx), and with which code; undefined for a failure.
 */
export function refusalOf(e: Error): Refusal | undefined {
  if (e instanceof ProtocolError) return { code: e.code, message: e.message }
  const rejected = REJECTED.exec(e.message)
  return rejected ? { code: rejected[1]!, message: e.message.slice(0, 300) } : undefined
}
