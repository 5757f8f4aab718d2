import type { IncomingMessage, ServerResponse } from 'node:http'
import { originForm, type RequestTarget } from '../http/request-target.ts'

/**
 * The SDK's HTTP handlers speak the fetch API (Request in, Response out); the service speaks
 * node:http. The body is already read and parsed (bounded, by the service's reader), so the
 * Request carries the headers only and the SDK is given the parsed message beside it. Its URL is
 * the service's origin with the target's parsed path and query: a request line in absolute-form
 * (`POST http://elsewhere/mcp`) names another authority, which this origin does not serve.
 */
export function webRequestOf(req: IncomingMessage, origin: string, target: RequestTarget): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  return new Request(`${origin}${originForm(target)}`, { method: req.method, headers })
}

/** Writes a fetch Response (the SDK's answer) to the node response, adding `extra` headers. */
export async function sendWebResponse(res: ServerResponse, answer: Response, extra: string[] = []): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer())
  const headers: string[] = [...extra]
  answer.headers.forEach((value, name) => {
    headers.push(name, value)
  })
  if (answer.status !== 202 && answer.status !== 204) headers.push('Content-Length', String(body.length))
  res.writeHead(answer.status, headers)
  res.end(body)
}
