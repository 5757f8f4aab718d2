import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { allowedMethods } from '../../auth-service/http/route-table.ts'
import { ENDPOINTS } from '../../auth-service/endpoints.ts'
import { openApiPath, type Endpoint } from '../../auth-service/http/endpoint.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const rows = ENDPOINTS as readonly Endpoint[]
const app = createApp({ ...(await testDeps()), rateLimits: DEFAULT_RATE_LIMITS })
/** A concrete path for a row: parameters filled with a known article. */
const concrete = (path: string) => path.replace(':slug', 'hashing-rings')
const send = (method: string, path: string) =>
  (request(app) as unknown as Record<string, (p: string) => request.Test>)[method.toLowerCase()]!(path)

describe('the endpoint table', () => {
  it(
    'is what the router answers: ' + 'each row by its method, every other method a 405 with the table’s Allow',
    async () => {
      const allow = allowedMethods(rows)
      for (const e of rows) {
        const res = await send(e.method, concrete(e.path))
        expect([404, 405], `${e.method} ${e.path}`).not.toContain(res.status)
        const other = e.method === 'GET' ? 'POST' : 'GET'
        if (rows.some((r) => r.path === e.path && r.method === other)) continue
        const refused = await send(other, concrete(e.path))
        expect(refused.status, `${other} ${e.path}`).toBe(405)
        expect(refused.headers.allow).toBe(allow.get(e.path))
        expect(refused.headers.allow).toBe(e.method === 'GET' ? 'GET, HEAD' : 'POST')
      }
    },
  )

  it('is what /openapi.json describes, operation by operation', async () => {
    const { paths } = (await request(app).get('/openapi.json')).body
    const documented = Object.entries<Record<string, { operationId: string }>>(paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    )
    const described = rows
      .filter((e) => e.action.operation)
      .flatMap((e) => [
        `${e.method} ${openApiPath(e.path)} ${e.operationId}`,
        ...(e.method === 'GET' ? [`HEAD ${openApiPath(e.path)} ${e.operationId}Head`] : []),
      ])
    expect(documented.sort()).toEqual(described.sort())
    expect(rows.filter((e) => !e.action.operation).map((e) => e.path)).toEqual(['/openapi.json'])
  })

  it('is what the /api/v1 catalog lists', async () => {
    const { endpoints } = (await request(app).get('/api/v1')).body
    const api = rows.filter((e) => e.path.startsWith('/api/'))
    expect(endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`).sort()).toEqual(
      api.map((e) => `${e.method} ${openApiPath(e.path)}`).sort(),
    )
  })

  it('gives the discovery documents their endpoint URLs', async () => {
    const asm = (await request(app).get('/.well-known/oauth-authorization-server')).body
    const prm = (await request(app).get('/.well-known/oauth-protected-resource')).body
    const url = (operationId: string) =>
      `${BASE_URL}${openApiPath(rows.find((e) => e.operationId === operationId)!.path)}`
    expect(asm).toMatchObject({
      token_endpoint: url('exchangeToken'),
      revocation_endpoint: url('revokeToken'),
      jwks_uri: url('getJwks'),
      agent_auth: {
        identity_endpoint: url('registerIdentity'),
        claim_endpoint: url('claimIdentity'),
        events_endpoint: url('receiveSecurityEvent'),
      },
    })
    expect(prm.resource).toBe(url('getCatalog'))
  })

  it(
    'puts each row on its budgets: reads on "reads"; ' +
      'every other write (a POST, or a GET that stores) on "writes", an issuance also on its own',
    async () => {
      for (const e of rows) {
        const res = await send(e.method, concrete(e.path))
        const names = [...String(res.headers['ratelimit-policy'] ?? '').matchAll(/"(\w+)"; q=\d+; w=\d+/g)].map(
          (m) => m[1],
        )
        const expected = [...(e.kind !== 'read' ? ['writes'] : []), ...(e.budget ? [e.budget] : [])]
        expect(names, `${e.method} ${e.path}`).toEqual(expected)
      }
    },
  )

  it('checks the bearer and the table’s scope on every read of a protected resource', async () => {
    const forged = { Authorization: 'Bearer forged' }
    for (const e of rows.filter((r) => r.scope)) {
      const res = await send(e.method, concrete(e.path)).set(forged)
      expect(res.status, e.path).toBe(401)
      expect(res.headers['www-authenticate']).toMatch(/resource_metadata=/)
    }
    for (const e of rows.filter((r) => !r.path.startsWith('/api/') && !r.scope)) {
      const res = await send(e.method, concrete(e.path)).set(forged)
      expect(res.status, e.path).not.toBe(401)
    }
  })
})
