import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createApp } from '../../auth-service/app.ts'
import { ERROR_CODES } from '../../auth-service/errors.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { checkResponse } from '../support/openapi-responses.ts'

const app = createApp(await testDeps())
const SERVICE = join(import.meta.dirname, '..', '..', 'auth-service')

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0, served as JSON', async () => {
    const res = await request(app).get('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body.openapi).toBe('3.1.0')
    expect(res.body.info.version).toBe('1.0.0')
    expect(res.body.servers).toEqual([
      { url: BASE_URL, description: 'The production server at this origin.', 'x-internal': false },
    ])
    const result = await new Validator().validate(res.body)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })

  it('describes every endpoint of the interface, with its parameters, bounds and errors', async () => {
    const { paths, components } = (await request(app).get('/openapi.json')).body
    expect(Object.keys(paths).sort()).toEqual(
      [
        '/.well-known/ai-catalog.json',
        '/.well-known/api-catalog',
        '/.well-known/jwks.json',
        '/.well-known/mcp/server-card.json',
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/api/v1',
        '/.well-known/oauth-protected-resource/mcp',
        '/agent/event/notify',
        '/agent/identity',
        '/agent/identity/claim',
        '/api/v1',
        '/api/v1/keys',
        '/api/v1/posts',
        '/api/v1/posts/{slug}',
        '/api/v1/search',
        '/mcp',
        '/mcp/server-card',
        '/oauth2/authorize',
        '/oauth2/register',
        '/oauth2/revoke',
        '/oauth2/token',
        '/oai',
      ].sort(),
    )
    const limit = (path: string) => paths[path].get.parameters.find((p: { name: string }) => p.name === 'limit').schema
    expect(limit('/api/v1/posts')).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 50 })
    expect(limit('/api/v1/search')).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 50, default: 20 })
    // The paging additions: a cursor on both reads, filters on the list, next_cursor in both envelopes.
    const names = (path: string) => paths[path].get.parameters.map((p: { name: string }) => p.name)
    expect(names('/api/v1/posts')).toEqual(['limit', 'cursor', 'tag', 'author', 'updated_since'])
    expect(names('/api/v1/search')).toEqual(['q', 'limit', 'cursor'])
    for (const envelope of ['PostList', 'SearchResult'])
      expect(components.schemas[envelope].properties.next_cursor.type).toEqual(['string', 'null'])
    expect(paths['/api/v1/posts'].get.responses['200'].headers).toHaveProperty('Link')
    const q = paths['/api/v1/search'].get.parameters.find((p: { name: string }) => p.name === 'q')
    expect(q.required).toBe(true)
    expect(paths['/api/v1/search'].get.responses).toHaveProperty('400')
    expect(paths['/api/v1/posts/{slug}'].get.responses).toHaveProperty('404')
    expect(paths['/api/v1/keys'].post.responses).toHaveProperty('201')
    for (const name of ['Post', 'PostDetail', 'ApiKey', 'Error']) expect(components.schemas).toHaveProperty(name)
    expect(components.schemas.Error.properties.error).toMatchObject({ type: 'string' })
    expect(components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    )
    for (const [path, ops] of Object.entries<Record<string, { security?: unknown }>>(paths))
      if (path.startsWith('/api/') && ops.get) expect(ops.get.security, path).toEqual([{}, { bearer: [] }])
  })

  it('documents no code that the service never answers with', () => {
    const sources = readdirSync(SERVICE, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(SERVICE, f), 'utf8'))
      .join('\n')
    // A code is answered where it is written as a string; the status table in errors.ts names them bare.
    expect(ERROR_CODES.filter((code) => !sources.includes(`'${code}'`))).toEqual([])
  })

  it('is what the response checker enforces: a body that matches no documented answer is caught', () => {
    expect(checkResponse('GET', '/api/v1/posts/x', 200, 'application/json', { slug: 1 })).toMatch(/does not match/)
    expect(checkResponse('GET', '/api/v1/posts', 200, 'application/json', { posts: [] })).toBeUndefined()
    expect(checkResponse('POST', '/agent/identity/claim', 200, 'application/json', {})).toMatch(/does not match/)
    expect(
      checkResponse('POST', '/agent/event/notify', 400, 'application/json', {
        error: 'invalid_request',
        error_description: 'x',
      }),
    ).toMatch(/does not match/)
    expect(checkResponse('GET', '/not/an/api', 200, 'text/html', '')).toBeUndefined()
  })
})
