import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Ajv2020 } from 'ajv/dist/2020.js'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { errorBody, ERROR_DESCRIPTION_MAX } from '../../auth-service/errors.ts'
import { buildOpenApiDocument } from '../../auth-service/openapi/document.ts'
import { LINE_MAX, OWN_LIST_MAX } from '../../auth-service/schemas/shared.ts'
import { SCOPES } from '../../auth-service/auth/policy.ts'
import { ENDPOINTS } from '../../auth-service/endpoints.ts'
import { testDeps } from '../support/index.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const ORIGIN = 'https://research.example.org'
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by the paths the test names
type Json = Record<string, any>

interface Finding {
  code: string
  severity: number
  path: string[]
}

/** Spectral's CLI with the OWASP API Security ruleset on a document, as a consumer's CI runs it (offline). */
async function spectral(document: Json): Promise<Finding[]> {
  const file = join(tempDir('spectral'), 'openapi.json')
  writeFileSync(file, JSON.stringify(document))
  const cli = join(ROOT, 'node_modules', '.bin', 'spectral')
  const args = ['lint', file, '-r', join(ROOT, 'test/http/owasp.spectral.yaml'), '-f', 'json', '--quiet']
  // Exit status 1 means "errors found": the findings are on stdout either way.
  const out = await promisify(execFile)(process.execPath, [cli, ...args], { cwd: ROOT }).catch(
    (e: { code?: number; stdout?: string; stderr?: string }) => {
      if (e.code !== 1) throw new Error(`spectral failed: ${e.stderr}`)
      return { stdout: e.stdout! }
    },
  )
  return JSON.parse(out.stdout) as Finding[]
}

/** The one excused finding: OAI-PMH 2.0 §3.5 names the paging argument `resumptionToken`. */
const excused = (doc: Json, f: Finding) =>
  f.code === 'owasp:api2:2023-no-credentials-in-url' &&
  f.path[1] === '/oai' &&
  doc.paths['/oai'][f.path[2]!].parameters[Number(f.path[4])].name === 'resumptionToken'

describe('/openapi.json under the OWASP API Security ruleset', () => {
  const doc = buildOpenApiDocument(ORIGIN) as Json

  it('has no error but the protocol-named resumptionToken', { timeout: 120_000 }, async () => {
    const findings = await spectral(doc)
    const errors = findings.filter((f) => f.severity === 0)
    expect(errors.filter((f) => !excused(doc, f)).map((f) => `${f.code} at ${f.path.join('.')}`)).toEqual([])
    expect(errors.length).toBe(2) // the GET's and its HEAD twin's
  })

  it('flags only the plain-http server URL besides, for a local server', { timeout: 120_000 }, async () => {
    const local = buildOpenApiDocument('http://127.0.0.1:33651') as Json
    expect(local.servers[0].description).toMatch(/local/)
    const errors = (await spectral(local)).filter((f) => f.severity === 0 && !excused(local, f))
    expect(errors.map((f) => `${f.code} at ${f.path.join('.')}`)).toEqual([
      'owasp:api8:2023-no-server-http at servers.0.url',
    ])
  })

  it('declares the CORS and budget headers on every answer, each header bounded', () => {
    for (const [path, ops] of Object.entries(doc.paths as Json))
      for (const [method, op] of Object.entries(ops as Json))
        for (const [status, r] of Object.entries(op.responses as Json)) {
          const headers = (r as Json).headers as Json
          expect(headers['Access-Control-Allow-Origin'].schema, `${method} ${path} ${status}`).toEqual({
            type: 'string',
            const: '*',
          })
          if (/^[24]/.test(status)) expect(headers.RateLimit, `${method} ${path} ${status}`).toBeDefined()
          for (const h of Object.values(headers) as Json[])
            expect(h.schema.maxLength ?? h.schema.const ?? h.schema.enum ?? h.schema.maximum).toBeDefined()
        }
  })

  it('holds the service’s own lines and lists to the bounds the schemas declare', () => {
    expect(ENDPOINTS.length * 2).toBeLessThanOrEqual(OWN_LIST_MAX)
    expect(SCOPES.length).toBeLessThanOrEqual(OWN_LIST_MAX)
    for (const e of ENDPOINTS) expect(e.path.length).toBeLessThanOrEqual(LINE_MAX)
    for (const ops of Object.values(doc.paths as Json))
      for (const op of Object.values(ops as Json)) expect((op as Json).summary.length).toBeLessThanOrEqual(LINE_MAX)
  })

  it('cuts an error description to the bound it declares', () => {
    expect(errorBody('invalid_request', 'x'.repeat(5000)).error_description).toHaveLength(ERROR_DESCRIPTION_MAX)
    expect(doc.components.schemas.Error.properties.error_description.maxLength).toBe(ERROR_DESCRIPTION_MAX)
  })
})

describe('the headers the service sends', () => {
  it('match the schemas the document declares for them', async () => {
    const app = createApp({ ...(await testDeps()), rateLimits: DEFAULT_RATE_LIMITS })
    const doc = buildOpenApiDocument(ORIGIN) as Json
    const ajv = new Ajv2020({ strict: false })
    const cases: Array<[string, string, number, () => request.Test]> = [
      ['/api/v1/posts', 'get', 200, () => request(app).get('/api/v1/posts?limit=1')],
      ['/api/v1/posts/{slug}', 'get', 200, () => request(app).get('/api/v1/posts/hashing-rings')],
      ['/.well-known/jwks.json', 'get', 200, () => request(app).get('/.well-known/jwks.json')],
      [
        '/.well-known/oauth-authorization-server',
        'get',
        200,
        () => request(app).get('/.well-known/oauth-authorization-server'),
      ],
      [
        '/api/v1/posts',
        'get',
        401,
        () => request(app).get('/api/v1/posts').set('Authorization', 'Bearer lat_live_not-a-key'),
      ],
      ['/api/v1/keys', 'post', 201, () => request(app).post('/api/v1/keys').send({ label: 'headers' })],
    ]
    for (const [path, method, status, send] of cases) {
      const res = await send()
      expect(res.status, `${method} ${path}`).toBe(status)
      const declared = doc.paths[path][method].responses[String(status)].headers as Json
      // Every budgeted answer says what is left of its budget, discovery documents included.
      expect(res.headers.ratelimit, `${method} ${path}`).toBeDefined()
      for (const [name, h] of Object.entries(declared)) {
        const value = res.headers[name.toLowerCase()]
        if (value === undefined) continue
        const typed = (h as Json).schema.type === 'integer' ? Number(value) : value
        expect(ajv.validate((h as Json).schema, typed), `${name}: ${value} on ${method} ${path}`).toBe(true)
      }
    }
  })
})
