import type { IncomingMessage, ServerResponse } from 'node:http'
import { readFileSync } from 'node:fs'
import type { Problem } from './problems.ts'

/** Where the preview's own routes live: a prefix the site never uses. */
export const PREVIEW_PREFIX = '/__preview'
export const CLIENT_PATH = `${PREVIEW_PREFIX}/client.js`
export const EVENTS_PATH = `${PREVIEW_PREFIX}/events`

/**
 * What every open page is told. `build` names the last good build: a page made from another
 * one reloads. `problems` is empty unless the latest build failed.
 */
export interface PreviewState {
  build: string
  problems: Problem[]
  /** Pages whose own source changed in that build: they reload without checking first. */
  changed?: string[]
}

export interface LiveReload {
  /** Serves the client script and the event stream; false for every other request. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean
  publish(state: PreviewState): void
  state(): PreviewState
  /** Ends every open stream (before the server closes, which waits for them). */
  close(): void
}

const CLIENT = readFileSync(new URL('./client.js', import.meta.url), 'utf8')
const HEARTBEAT_MS = 15_000
/**
 * Open event streams at most: a writer has a few tabs open (a browser holds six connections per
 * host over HTTP/1.1), and each stream holds a socket for as long as it lasts.
 */
export const MAX_STREAMS = 32
/** The Retry-After of a stream refused at the cap: the browser's EventSource does not retry it. */
const RETRY_AFTER_SECONDS = 5

/** Server-Sent Events to open pages: the current state on connect, then each change. */
export function createLiveReload(initial: PreviewState): LiveReload {
  let current = initial
  const clients = new Set<ServerResponse>()
  const send = (res: ServerResponse) => res.write(`data: ${JSON.stringify(current)}\n\n`)
  // Comments keep idle streams open through proxies and let a dead one be noticed.
  const heartbeat = setInterval(() => {
    for (const res of clients) res.write(': keep-alive\n\n')
  }, HEARTBEAT_MS).unref()

  const handle = (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    if (path === CLIENT_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
      res.setHeader('Cache-Control', 'no-store')
      res.setHeader('X-Content-Type-Options', 'nosniff')
      res.end(req.method === 'HEAD' ? undefined : CLIENT)
      return true
    }
    if (path === EVENTS_PATH && req.method === 'GET') {
      if (clients.size >= MAX_STREAMS) {
        refuseStream(res)
        return true
      }
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Accel-Buffering': 'no',
      })
      // Reconnect quickly when the preview restarts.
      res.write('retry: 500\n\n')
      send(res)
      clients.add(res)
      res.on('close', () => clients.delete(res))
      return true
    }
    return false
  }

  return {
    handle,
    publish(state) {
      current = state
      for (const res of clients) send(res)
    },
    state: () => current,
    close() {
      clearInterval(heartbeat)
      for (const res of clients) res.end()
      clients.clear()
    },
  }
}

/** 503 beyond MAX_STREAMS (RFC 9110 §15.6.4), saying why: the other streams are still served. */
function refuseStream(res: ServerResponse): void {
  const body = JSON.stringify({
    error: 'temporarily_unavailable',
    error_description:
      `The preview already serves ${MAX_STREAMS} live-reload streams, its most: ` +
      'close some of its tabs, then reload this page.',
  })
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Retry-After': String(RETRY_AFTER_SECONDS),
  })
  res.end(body)
}
