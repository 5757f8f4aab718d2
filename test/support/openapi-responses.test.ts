import express from 'express'
import request from 'supertest'
import { describe, expect, it } from 'vitest'

/** An app that answers the API's paths in ways /openapi.json does not describe. */
const liar = express()
liar.get('/api/v1/posts/:slug', (_req, res) => void res.json({ slug: 1 }))
liar.get('/api/v1/posts', (_req, res) => void res.status(418).json({ posts: [] }))
liar.get('/api/v1/search', (_req, res) => void res.json({ query: 'x', posts: [] }))

describe('the OpenAPI response check on every supertest request', () => {
  it('fails a request whose JSON body does not match the documented schema', async () => {
    await expect(request(liar).get('/api/v1/posts/x')).rejects.toThrow(
      /GET \/api\/v1\/posts\/x 200 does not match \/openapi.json/,
    )
    await expect(request(liar).get('/api/v1/posts/x').expect(200)).rejects.toThrow(/does not match/)
  })

  it('fails an error answer that does not have the documented error shape', async () => {
    await expect(request(liar).get('/api/v1/posts?limit=1')).rejects.toThrow(
      /GET \/api\/v1\/posts 418 does not match .*'error'/,
    )
  })

  it('lets a documented answer and a path outside the API through', async () => {
    expect((await request(liar).get('/api/v1/search?q=x')).status).toBe(200)
    expect((await request(liar).get('/elsewhere')).status).toBe(404)
  })
})
