import { acceptsBearer, type Endpoint } from './openapi'

/**
 * Where the reader's API key goes in a sample, and how it must be quoted there. The page shows
 * KEY_PLACEHOLDER until a key is created; then the portal script (site/scripts/portal/key-slots.ts)
 * writes the key in, quoted by the same rules as quote() below.
 */
export type KeySlot = { key: 'shell' | 'js' | 'python' | 'json' }
export type Segment = string | KeySlot
export const KEY_PLACEHOLDER = 'YOUR_API_KEY'

/** A string as a literal of each language the samples use: shell single quotes, JS and Python single quotes, JSON. */
export function quote(lang: KeySlot['key'], s: string): string {
  switch (lang) {
    case 'shell':
      return `'${s.replace(/'/g, `'\\''`)}'`
    case 'json':
      return JSON.stringify(s)
    default:
      // JSON's escapes are valid in JS and Python strings; only the quote differs.
      return `'${JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`
  }
}

/** A JSON value as a Python literal (requests' `json=` / `data=` arguments). */
function pythonLiteral(value: unknown): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'string') return quote('python', value)
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`
  if (typeof value === 'object')
    return `{${Object.entries(value as object)
      .map(([k, v]) => `${quote('python', k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`
  return String(value)
}

/** Copy-paste requests for an endpoint in curl, JavaScript (fetch) and Python (requests). */
export function samples(e: Endpoint, base: string): { curl: Segment[]; js: Segment[]; python: Segment[] } {
  const path = e.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(e.parameters?.find((p) => p.name === name)?.example ?? name),
  )
  const query = (e.parameters ?? []).filter((p) => p.in === 'query' && (p.required || p.name === 'limit'))
  const qs = query.map((p) => `${p.name}=${encodeURIComponent(String(p.example ?? p.schema.default ?? ''))}`).join('&')
  const url = `${base}${path}${qs ? `?${qs}` : ''}`
  const bodyTypes = Object.keys(e.requestBody?.content ?? {})
  const form = bodyTypes[0] === 'application/x-www-form-urlencoded'
  const example = e.requestBody?.content[bodyTypes[0] ?? '']?.example as Record<string, string> | undefined

  if (e.method === 'GET') {
    // Reads are public: the key only identifies the caller (and earns the larger rate budget).
    if (!acceptsBearer(e))
      return {
        curl: [`curl -s ${quote('shell', url)}`],
        js: [`const res = await fetch(${quote('js', url)})\nconst data = await res.json()`],
        python: [`import requests\n\ndata = requests.get(${quote('python', url)}).json()`],
      }
    return {
      curl: [`curl -s ${quote('shell', url)} \\\n  -H 'Authorization: Bearer `, { key: 'shell' }, `'`],
      js: [
        `const res = await fetch(${quote('js', url)}, {\n  headers: { Authorization: 'Bearer `,
        { key: 'js' },
        `' },\n})\nconst data = await res.json()`,
      ],
      python: [
        `import requests\n\ndata = requests.get(${quote('python', url)}, headers={'Authorization': 'Bearer `,
        { key: 'python' },
        `'}).json()`,
      ],
    }
  }
  if (form) {
    const fields = Object.entries(example ?? { token: '<token>' })
    return {
      curl: [
        `curl -s -X POST ${quote('shell', url)} \\\n` +
          fields.map(([k, v]) => `  --data-urlencode ${quote('shell', `${k}=${v}`)}`).join(' \\\n'),
      ],
      js: [
        `const res = await fetch(${quote('js', url)}, {\n  method: 'POST',\n  body: new URLSearchParams({\n` +
          `${fields.map(([k, v]) => `    ${k}: ${quote('js', v)},`).join('\n')}\n` +
          `  }),\n})\nconst data = await res.json()`,
      ],
      python: [
        `import requests\n\n` +
          `data = requests.post(${quote('python', url)}, data=${pythonLiteral(Object.fromEntries(fields))}).json()`,
      ],
    }
  }
  const body = example === undefined ? undefined : JSON.stringify(example)
  return {
    curl: [
      `curl -s -X POST ${quote('shell', url)}` +
        (body ? ` \\\n  -H 'Content-Type: application/json' \\\n  -d ${quote('shell', body)}` : ''),
    ],
    js: [
      `const res = await fetch(${quote('js', url)}, {\n  method: 'POST',` +
        (body ? `\n  headers: { 'Content-Type': 'application/json' },\n  body: JSON.stringify(${body}),` : '') +
        `\n})\nconst data = await res.json()`,
    ],
    python: [
      `import requests\n\n` +
        `data = requests.post(${quote('python', url)}${body ? `, json=${pythonLiteral(example)}` : ''}).json()`,
    ],
  }
}
