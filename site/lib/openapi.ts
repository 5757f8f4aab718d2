import { readFileSync } from 'node:fs'

export interface Parameter {
  name: string
  in: 'query' | 'path'
  required?: boolean
  description?: string
  example?: string
  schema: { type?: string; minimum?: number; maximum?: number; default?: number; maxLength?: number }
}
export interface Operation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  security?: unknown[]
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { example?: unknown }> }
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>
}
export interface Endpoint extends Operation {
  method: string
  path: string
}

/**
 * The OpenAPI document the build wrote for this build (OPENAPI_FILE, set by scripts/build.ts):
 * the site reads it as data, like the post index, and never imports the service.
 */
export function loadEndpoints(): { endpoints: Endpoint[]; serverUrl: string } {
  const file = process.env.OPENAPI_FILE
  if (!file) throw new Error('OPENAPI_FILE is not set: build the site with "npm run build".')
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> }
  const endpoints = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  )
  return { endpoints, serverUrl: doc.servers[0]!.url }
}

/** Copy-paste requests for an endpoint in curl, JavaScript (fetch) and Python (requests). */
export function samples(e: Endpoint, base: string): { curl: string; js: string; python: string } {
  const path = e.path.replace(/\{(\w+)\}/g, (_, name) => e.parameters?.find((p) => p.name === name)?.example ?? name)
  const query = (e.parameters ?? []).filter((p) => p.in === 'query' && (p.required || p.name === 'limit'))
  const qs = query.map((p) => `${p.name}=${encodeURIComponent(String(p.example ?? p.schema.default ?? ''))}`).join('&')
  const url = `${base}${path}${qs ? `?${qs}` : ''}`
  const bodyTypes = Object.keys(e.requestBody?.content ?? {})
  const form = bodyTypes[0] === 'application/x-www-form-urlencoded'
  const example = e.requestBody?.content[bodyTypes[0] ?? '']?.example as Record<string, string> | undefined

  // Many query parameters (the OAuth authorization endpoint) go one per line, as a URL that long would not fit.
  if (e.method === 'GET' && query.length > 2) {
    const params = Object.fromEntries(query.map((p) => [p.name, String(p.example ?? p.schema.default ?? '')]))
    const pretty = JSON.stringify(params, null, 2)
    return {
      curl: `curl -s -G '${base}${path}' \\\n${Object.entries(params).map(([k, v]) => `  --data-urlencode '${k}=${v}'`).join(' \\\n')}`,
      js: `const url = new URL('${base}${path}')\nurl.search = new URLSearchParams(${pretty}).toString()\nconst res = await fetch(url)`,
      python: `import requests\n\nres = requests.get('${base}${path}', params=${pretty})`,
    }
  }
  if (e.method === 'GET')
    return {
      curl: `curl -s '${url}'`,
      js: `const res = await fetch('${url}')\nconst data = await res.json()`,
      python: `import requests\n\ndata = requests.get('${url}').json()`,
    }
  if (form) {
    const fields = Object.entries(example ?? { token: '<token>' })
    return {
      curl: `curl -s -X POST '${url}' \\\n${fields.map(([k, v]) => `  --data-urlencode '${k}=${v}'`).join(' \\\n')}`,
      js: `const res = await fetch('${url}', {\n  method: 'POST',\n  body: new URLSearchParams(${JSON.stringify(Object.fromEntries(fields), null, 2).replace(/\n/g, '\n  ')}),\n})\nconst data = await res.json()`,
      python: `import requests\n\ndata = requests.post('${url}', data=${JSON.stringify(Object.fromEntries(fields))}).json()`,
    }
  }
  const body = example === undefined ? undefined : JSON.stringify(example)
  return {
    curl: `curl -s -X POST '${url}'${body ? ` \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'` : ''}`,
    js: `const res = await fetch('${url}', {\n  method: 'POST',${body ? `\n  headers: { 'Content-Type': 'application/json' },\n  body: JSON.stringify(${body}),` : ''}\n})\nconst data = await res.json()`,
    python: `import requests\n\ndata = requests.post('${url}'${body ? `, json=${body}` : ''}).json()`,
  }
}
