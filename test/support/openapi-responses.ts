/**
 * Checks every response the test suite gets through supertest against /openapi.json: the
 * status must be documented for its operation, and a JSON body must match its schema. Every
 * test file gets it (vitest setupFiles), so the description cannot drift from the code.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { buildOpenApiDocument } from '../../auth-service/openapi/document.ts'

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: object }

const doc = buildOpenApiDocument('https://research.example.org') as unknown as Doc
const ajv = new Ajv2020({ strict: false, allErrors: true })
const addFormats = addFormatsModule as unknown as (a: Ajv2020) => void
addFormats(ajv)
// Answers are held to what the service promises, every field present: the contract's Post requires
// none (docs/api.md#the-openapi-document), so a response missing a field is caught against the
// Complete schemas instead.
const components = doc.components as { schemas: Record<string, object> }
ajv.addSchema({
  $id: 'openapi',
  components: {
    ...components,
    schemas: {
      ...components.schemas,
      Post: components.schemas.PostComplete,
      PostDetail: components.schemas.PostDetailComplete,
    },
  },
})

const routes = Object.entries(doc.paths).map(([template, ops]) => ({
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  ops,
}))
const validators = new Map<object, ValidateFunction>()

function validatorFor(schema: object): ValidateFunction {
  let v = validators.get(schema)
  if (!v) {
    v = ajv.compile({ $ref: `openapi${(schema as { $ref?: string }).$ref ?? ''}`, ...('$ref' in schema ? {} : schema) })
    validators.set(schema, v)
  }
  return v
}

export function checkResponse(
  method: string,
  path: string,
  status: number,
  contentType: string | undefined,
  body: unknown,
): string | undefined {
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
  const op = routes.find((r) => r.pattern.test(path))?.ops[verb]
  if (!op) return undefined
  const documented = op.responses[String(status)] ?? op.responses.default
  if (!documented) return `${method} ${path} answered ${status}, which /openapi.json does not document`
  if (method.toLowerCase() === 'head' || !contentType?.startsWith('application/json')) return undefined
  const schema = documented.content?.['application/json']?.schema
  if (!schema) return `${method} ${path} ${status} sent JSON that /openapi.json does not describe`
  const validate = validatorFor(schema)
  if (!validate(body))
    return `${method} ${path} ${status} does not match /openapi.json: ${ajv.errorsText(validate.errors)}`
  return undefined
}

type Supertest = typeof import('supertest')
type Test = import('supertest').Test
type Response = import('superagent').Response

/** A supertest assertion (the public `.expect(fn)` hook): throws when the answer breaks the description. */
export function conformsToOpenApi(res: Response): void {
  const { req } = res as unknown as { req: { method: string; path: string } }
  const problem = checkResponse(req.method, req.path.split('?')[0]!, res.status, res.headers['content-type'], res.body)
  if (problem) throw new Error(problem)
}

/**
 * supertest, with the OpenAPI assertion added to every request it makes (test/support/setup.ts mocks
 * the module with it).
 */
export function checkedSupertest(original: Supertest): Supertest {
  const request = (app: Parameters<Supertest>[0], options?: Parameters<Supertest>[1]) => {
    const agent = original(app, options) as unknown as Record<string, (url: string) => Test>
    for (const [method, make] of Object.entries(agent))
      agent[method] = (url: string) => make(url).expect(conformsToOpenApi)
    return agent
  }
  return Object.assign(request, original) as unknown as Supertest
}
