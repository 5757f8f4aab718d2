import { readFileSync } from 'node:fs'

/** A JSON Schema as the OpenAPI document writes it (3.1: full JSON Schema, `$ref` to components). */
export interface Schema {
  $ref?: string
  type?: string | string[]
  format?: string
  description?: string
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  additionalProperties?: boolean | Schema
  enum?: unknown[]
  const?: unknown
  default?: unknown
  examples?: unknown[]
  example?: unknown
  oneOf?: Schema[]
  anyOf?: Schema[]
  minimum?: number
  maximum?: number
  maxLength?: number
  pattern?: string
}
export interface Parameter {
  name: string
  in: 'query' | 'path' | 'header'
  required?: boolean
  description?: string
  example?: string
  schema: Schema & { minimum?: number; maximum?: number; default?: number; maxLength?: number }
}
export interface MediaType {
  schema?: Schema
  example?: unknown
}
export interface Response {
  description: string
  headers?: Record<string, { description?: string; schema?: Schema }>
  content?: Record<string, MediaType>
}
export interface Operation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  security?: Array<Record<string, string[]>>
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, MediaType> }
  responses: Record<string, Response>
}
export interface Endpoint extends Operation {
  method: string
  path: string
}
export interface OpenApiDocument {
  servers: Array<{ url: string }>
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema> }
}

/**
 * The OpenAPI document the build wrote for this build (OPENAPI_FILE, set by scripts/build.ts):
 * the site reads it as data, like the post index, and never imports the service.
 */
export function loadOpenApi(): { doc: OpenApiDocument; endpoints: Endpoint[]; serverUrl: string } {
  const file = process.env.OPENAPI_FILE
  if (!file) throw new Error('OPENAPI_FILE is not set: build the site with "npm run build".')
  const doc = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument
  // A GET's HEAD twin (headers only) is the GET itself to a reader of the portal.
  const endpoints = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => method !== 'head')
      .map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  )
  return { doc, endpoints, serverUrl: doc.servers[0]!.url }
}

/** Whether a bearer credential may be sent: the operation lists a `bearer` security alternative. */
export function acceptsBearer(e: Operation): boolean {
  return (e.security ?? []).some((alternative) => 'bearer' in alternative)
}

/** The body types the page can send from a form: JSON or a URL-encoded form (not, e.g., a SET). */
export const SENDABLE_BODIES = ['application/json', 'application/x-www-form-urlencoded'] as const
export type SendableBody = (typeof SENDABLE_BODIES)[number]

/** The body type the try-it sends for an operation, null for none, undefined when it cannot. */
export function tryItBody(e: Operation): SendableBody | null | undefined {
  if (!e.requestBody) return null
  return SENDABLE_BODIES.find((type) => type in e.requestBody!.content)
}

/** The success response of an operation (its first 2xx). */
export function successOf(e: Operation): [string, Response] | undefined {
  return Object.entries(e.responses).find(([status]) => status.startsWith('2'))
}

/**
 * Operations grouped by their first tag, in the document's order of tags; an operation under a
 * tag the document does not list still gets a group, so none is left off the page.
 */
export function groupByTag(doc: OpenApiDocument, endpoints: Endpoint[]): Array<{ tag: string; endpoints: Endpoint[] }> {
  const order = (doc.tags ?? []).map((t) => t.name)
  for (const e of endpoints) {
    const tag = e.tags[0] ?? 'Other'
    if (!order.includes(tag)) order.push(tag)
  }
  return order
    .map((tag) => ({ tag, endpoints: endpoints.filter((e) => (e.tags[0] ?? 'Other') === tag) }))
    .filter((g) => g.endpoints.length > 0)
}
