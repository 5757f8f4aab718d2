import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import request from 'supertest'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { postExchange, registerAgent } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'

const app = createApp(await testDeps())
const dir = mkdtempSync(join(tmpdir(), 'lattice-openapi-types-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every schema node of a JSON document that has `const` or `enum` but no `type` beside it. */
function untyped(node: unknown, path = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => untyped(v, `${path}/${i}`))
  if (typeof node !== 'object' || node === null) return []
  const own = ('const' in node || 'enum' in node) && !('type' in node) ? [path] : []
  return [
    ...own,
    ...Object.entries(node).flatMap(([k, v]) =>
      k === 'example' || k === 'examples' ? [] : untyped(v, `${path}/${k}`),
    ),
  ]
}

describe('types generated from /openapi.json', () => {
  it('give every const and enum a type', async () => {
    const doc = (await request(app).get('/openapi.json')).body
    expect(untyped(doc)).toEqual([])
  })

  it('type-check a small client against the live responses', async () => {
    const doc = (await request(app).get('/openapi.json')).body
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc)))
    const key = (await request(app).post('/api/v1/keys').send({ label: 'typed client' })).body
    const reg = await registerAgent(app)
    const token = (await postExchange(app, reg.identity_assertion)).body
    const list = (await request(app).get('/api/v1/posts?limit=2')).body
    const post = (await request(app).get(`/api/v1/posts/${list.posts[0].slug}`)).body
    const search = (await request(app).get('/api/v1/search?q=hashing')).body
    const catalog = (await request(app).get('/api/v1')).body
    const error = (await request(app).get('/api/v1/posts/no-such-post')).body
    const prm = (await request(app).get('/.well-known/oauth-protected-resource')).body
    const jwks = (await request(app).get('/.well-known/jwks.json')).body
    const live = (value: unknown) => JSON.stringify(value, null, 2)
    writeFileSync(
      join(dir, 'client.ts'),
      `import type { components, paths } from './api.ts'
type Schemas = components['schemas']
type Scope = 'research.read' | 'research.search'

// The live responses, each checked against its generated type (excess fields included).
export const key: Schemas['ApiKey'] = ${live(key)}
export const registration: Schemas['IdentityRegistration'] = ${live(reg)}
export const token: Schemas['TokenResponse'] = ${live(token)}
export const list: Schemas['PostList'] = ${live(list)}
export const post: Schemas['PostDetailComplete'] = ${live(post)}
export const contractPost: Schemas['PostDetail'] = ${live(post)}
export const search: Schemas['SearchResult'] = ${live(search)}
export const catalog: Schemas['Catalog'] = ${live(catalog)}
export const error: Schemas['Error'] = ${live(error)}
export const prm: Schemas['ProtectedResourceMetadata'] = ${live(prm)}
export const jwks: Schemas['JWKS'] = ${live(jwks)}

// What a client does with them: literal types, not unknown.
export const bearer: 'Bearer' = key.token_type
export const scopes: Scope[] = key.scopes
export const granted: 'Bearer' = token.token_type
export const markdown: string = post.markdown
export const titles: string[] = (list.posts as Schemas['PostComplete'][]).map((p) => p.title)
// The contract's PostDetail requires no field (docs/api.md#the-openapi-document); the Complete
// schema promises them.
// @ts-expect-error markdown may be absent from the contract's PostDetail
export const assumed: string = contractPost.markdown
export const code: Schemas['Error']['error'] = error.error
export const limit: paths['/api/v1/posts']['get']['parameters']['query'] = { limit: 10 }
// @ts-expect-error a key's token_type is "Bearer", nothing else
export const wrongType: Schemas['ApiKey']['token_type'] = 'Basic'
// @ts-expect-error scopes are the two documented ones
export const wrongScope: Schemas['ApiKey']['scopes'] = ['research.write']
// @ts-expect-error error codes are a closed set
export const wrongCode: Schemas['Error']['error'] = 'no_such_code'
`,
    )
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    })
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(problems).toEqual([])
  })
})
