/**
 * The OpenAPI document tells the truth: Post declares no required field (the interface contract),
 * every example validates against its own schema, every request string, array and number declares
 * its bound, and the bound is the one the code enforces (one table, FIELD_LIMITS). Budgeted
 * responses declare their RateLimit headers, and the HEAD operations the service answers are there.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS, FIELD_LIMITS } from '../../auth-service/defaults.ts'
import { buildOpenApiDocument } from '../../auth-service/openapi/document.ts'
import { testDeps } from '../support/index.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = buildOpenApiDocument('https://research.example.org') as Json
const schemas = doc.components.schemas as Record<string, Json>
const ajv = new Ajv2020({ strict: false, allErrors: true })
;(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv)
ajv.addSchema({ $id: 'openapi', components: doc.components })
const validatorOf = (schema: Json) =>
  ajv.compile(schema.$ref ? { $ref: `openapi${schema.$ref}` } : { ...schema, $defs: undefined })

const resolve = (schema: Json): Json => (schema.$ref ? resolve(schemas[schema.$ref.slice(21)]!) : schema)

const operations = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op })),
)

/** Every place of the document that holds a schema and an example of it. */
function examples(): Array<[string, Json, unknown]> {
  const found: Array<[string, Json, unknown]> = []
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, `${where}[${i}]`)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const n = node as Json
    if (n.schema && 'example' in n) found.push([where, n.schema, n.example])
    if (n.schema && n.examples && typeof n.examples === 'object' && !Array.isArray(n.examples))
      for (const [name, ex] of Object.entries(n.examples as Record<string, Json>))
        found.push([`${where} examples.${name}`, n.schema, ex.value])
    // A schema's own `examples` (JSON Schema 2020-12 §9.5): each must be an instance of it.
    if (Array.isArray(n.examples) && (n.type || n.$ref || n.properties))
      for (const [i, ex] of n.examples.entries()) found.push([`${where} examples[${i}]`, n, ex])
    for (const [k, v] of Object.entries(n)) walk(v, `${where}.${k}`)
  }
  walk(doc.paths, 'paths')
  walk(schemas, 'schemas')
  return found
}

/** Unbounded strings, arrays and numbers in a request schema, by their path. */
function unbounded(schema: Json, where: string, seen = new Set<string>()): string[] {
  // A named schema is walked once per request (schemas may refer to themselves).
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return []
    seen.add(schema.$ref)
  }
  const s = resolve(schema)
  const problems: string[] = []
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const)
    for (const [i, sub] of (s[key] ?? []).entries()) problems.push(...unbounded(sub, `${where}.${key}[${i}]`, seen))
  const types = [s.type].flat()
  const bounded = 'const' in s || 'enum' in s
  if (types.includes('string') && !bounded && s.maxLength === undefined)
    problems.push(`${where}: string without maxLength`)
  if (types.includes('array') && s.maxItems === undefined) problems.push(`${where}: array without maxItems`)
  if ((types.includes('integer') || types.includes('number')) && !bounded && s.maximum === undefined)
    problems.push(`${where}: number without maximum`)
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Json>))
    problems.push(...unbounded(prop, `${where}.${name}`, seen))
  if (s.items) problems.push(...unbounded(s.items, `${where}[]`, seen))
  return problems
}

describe('the OpenAPI document', () => {
  it('declares no required field for Post or PostDetail, and offers the complete shapes as separate schemas', () => {
    expect(schemas.Post!.required).toBeUndefined()
    expect(schemas.PostDetail!.required).toBeUndefined()
    expect(schemas.PostComplete!.required).toEqual(expect.arrayContaining(['slug', 'title', 'url', 'markdown_url']))
    expect(schemas.PostDetailComplete!.required).toContain('markdown')
  })

  it('has examples, and every one validates against its own schema', () => {
    const all = examples()
    expect(all.length).toBeGreaterThan(10)
    const failures = all.filter(([, schema, example]) => !validatorOf(schema)(example)).map(([where]) => where)
    expect(failures).toEqual([])
  })

  it('bounds every request string, array and number', () => {
    const problems = operations.flatMap(({ path, method, op }) => [
      ...(op.parameters ?? []).flatMap((p: Json) => unbounded(p.schema, `${method} ${path} ${p.in} ${p.name}`)),
      ...Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>).flatMap(([type, media]) =>
        unbounded(media.schema, `${method} ${path} ${type}`),
      ),
    ])
    expect(problems).toEqual([])
  })

  it('declares the bounds the code enforces, from the one table', () => {
    const token = resolve(schemas.TokenRequest!).properties
    for (const name of [
      'assertion',
      'code',
      'code_verifier',
      'refresh_token',
      'client_id',
      'scope',
      'resource',
      'redirect_uri',
      'claim_token',
    ] as const)
      expect(token[name].maxLength, name).toBe(FIELD_LIMITS[name])
    expect(resolve(schemas.RevocationRequest!).properties.token.maxLength).toBe(FIELD_LIMITS.token)
    const authorize = operations.find((o) => o.path === '/oauth2/authorize' && o.method === 'get')!.op
    for (const p of authorize.parameters)
      if (p.schema.const === undefined)
        expect(p.schema.maxLength, p.name).toBe(FIELD_LIMITS[p.name as keyof typeof FIELD_LIMITS])
  })

  it('declares RateLimit headers on every response of a budgeted operation, and a HEAD beside every GET', () => {
    for (const { path, method, op } of operations) {
      if (method === 'get')
        expect(doc.paths[path].head, `HEAD ${path}`).toMatchObject({ operationId: `${op.operationId}Head` })
      const budgeted =
        path.startsWith('/api/v1') || ['/mcp', '/oauth2/authorize', '/oai'].includes(path) || method === 'post'
      if (!budgeted) continue
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>))
        expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).toEqual(
          expect.arrayContaining(['RateLimit', 'RateLimit-Policy']),
        )
    }
  })
})

const app = createApp({ ...(await testDeps()), rateLimits: DEFAULT_RATE_LIMITS })

describe('the declared bounds, sent to the service', () => {
  it.each([
    ['/oauth2/token', 'assertion', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' }],
    ['/oauth2/token', 'scope', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'x' }],
    [
      '/oauth2/token',
      'code_verifier',
      { grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://a.example/cb', client_id: 'c' },
    ],
    ['/oauth2/token', 'client_id', { grant_type: 'refresh_token', refresh_token: 'r' }],
    ['/oauth2/revoke', 'token', {}],
  ] as const)('%s refuses a %s one over its declared maxLength, and takes one at it', async (path, field, rest) => {
    const max = FIELD_LIMITS[field]
    const over = await request(app)
      .post(path)
      .type('form')
      .send({ ...rest, [field]: 'x'.repeat(max + 1) })
    expect(over.status).toBe(400)
    expect(over.body).toEqual({
      error: 'invalid_request',
      error_description: `"${field}" must be at most ${max} characters.`,
    })
    const at = await request(app)
      .post(path)
      .type('form')
      .send({ ...rest, [field]: 'x'.repeat(max) })
    expect(at.body.error_description ?? '').not.toContain('must be at most')
  })

  it('gives the MCP tools the complete shapes as output schemas: a tool promises every field', async () => {
    const res = await request(app)
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const tools = res.body.result.tools as Array<{ name: string; outputSchema: Json }>
    expect(tools.find((t) => t.name === 'get_post')!.outputSchema.required).toEqual(
      expect.arrayContaining(['slug', 'title', 'markdown']),
    )
    expect(tools.find((t) => t.name === 'list_posts')!.outputSchema.properties.posts.items.required).toEqual(
      expect.arrayContaining(['slug', 'url']),
    )
  })

  it('answers every operation with the RateLimit headers the document declares', async () => {
    for (const path of ['/api/v1/posts', '/api/v1/search?q=latency']) {
      for (const res of [await request(app).get(path), await request(app).head(path)]) {
        expect(res.headers.ratelimit).toEqual(expect.any(String))
        expect(res.headers['ratelimit-policy']).toEqual(expect.any(String))
      }
    }
    const write = await request(app).post('/oauth2/revoke').type('form').send({ token: 'x' })
    expect(write.headers.ratelimit).toEqual(expect.any(String))
  })
})
