/**
 * Reference servers answering GET /api/v1/posts/<slug> with the same precomputed bytes as the
 * service: a bare node:http server and a bare Express 5 app (its defaults: a SHA-1 ETag per
 * response). Usage: node bare-servers.ts <http|express> <port> <bodies.json>
 */
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import express from 'express'

const [kind, port, file] = process.argv.slice(2)
const bodies = new Map<string, Buffer>(
  Object.entries(JSON.parse(readFileSync(file!, 'utf8')) as Record<string, string>).map(([slug, json]) => [
    slug,
    Buffer.from(json),
  ]),
)
const PREFIX = '/api/v1/posts/'

if (kind === 'http') {
  createServer((req, res) => {
    const body = req.url!.startsWith(PREFIX) ? bodies.get(req.url!.slice(PREFIX.length)) : undefined
    if (!body) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length })
    res.end(body)
  }).listen(Number(port), '127.0.0.1', () => console.log('ready'))
} else {
  const app = express()
  app.get('/api/v1/posts/:slug', (req, res) => {
    const body = bodies.get(req.params.slug)
    if (!body) {
      res.sendStatus(404)
      return
    }
    res.type('json').send(body)
  })
  app.listen(Number(port), '127.0.0.1', () => console.log('ready'))
}
