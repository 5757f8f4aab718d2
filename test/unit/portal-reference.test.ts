import { execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Endpoint, Schema } from '../../site/lib/openapi.ts'
import { quote, samples, type Segment } from '../../site/lib/samples.ts'
import { describeSchema, exampleOf } from '../../site/lib/schema-view.ts'

const TRICKY = [
  `it's`,
  `a"b`,
  `back\\slash`,
  `new\nline`,
  `tab\there`,
  `$HOME \`id\``,
  `'; rm -rf / #`,
  `café ☕`,
  `\\'`,
  `\\"`,
  '',
]

describe('quote, for the samples of the developer portal', () => {
  it('gives back the same string when a shell reads it', () => {
    for (const s of TRICKY)
      expect(execFileSync('sh', ['-c', `printf %s ${quote('shell', s)}`], { encoding: 'utf8' })).toBe(s)
  })

  it('gives back the same string when Python reads it', () => {
    const script =
      `import sys\nfor s in [${TRICKY.map((s) => quote('python', s)).join(', ')}]: ` +
      `sys.stdout.write(repr(s) + '\\n')`
    const expected = execFileSync(
      'python3',
      ['-c', `import sys, json\nfor s in json.load(sys.stdin): sys.stdout.write(repr(s) + '\\n')`],
      {
        input: JSON.stringify(TRICKY),
        encoding: 'utf8',
      },
    )
    expect(execFileSync('python3', ['-c', script], { encoding: 'utf8' })).toBe(expected)
  })

  it('gives back the same string when JavaScript or JSON reads it, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(new Function(`return ${quote('js', s)}`)()).toBe(s)
        expect(JSON.parse(quote('json', s))).toBe(s)
      }),
    )
  })
})

const components: Record<string, Schema> = {
  Post: {
    type: 'object',
    properties: { slug: { type: 'string', examples: ['a-post'] }, date: { type: 'string', format: 'date' } },
    required: ['slug'],
  },
  PostList: {
    type: 'object',
    properties: { posts: { type: 'array', items: { $ref: '#/components/schemas/Post' } } },
    required: ['posts'],
  },
  Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
  Key: {
    type: 'object',
    properties: { label: { type: ['string', 'null'], maxLength: 100 }, kind: { type: 'string', const: 'Bearer' } },
  },
}

describe('describeSchema', () => {
  it('resolves $ref down to the fields of the items of an array', () => {
    const view = describeSchema({ $ref: '#/components/schemas/PostList' }, components)
    expect(view.ref).toBe('PostList')
    const posts = view.properties[0]!
    expect(posts).toMatchObject({ name: 'posts', required: true, view: { type: 'array of Post' } })
    expect(posts.view.properties.map((p) => [p.name, p.required, p.view.type])).toEqual([
      ['slug', true, 'string'],
      ['date', false, 'string (date)'],
    ])
    expect(posts.view.properties[0]!.view.notes).toEqual(['e.g. "a-post"'])
  })

  it('stops at a schema that contains itself', () => {
    const tree = describeSchema({ $ref: '#/components/schemas/Tree' }, components)
    const children = tree.properties[0]!.view
    expect(children.type).toBe('array of Tree')
    expect(children.properties).toEqual([])
  })

  it('says nullable types, constants and lengths in words', () => {
    const [label, kind] = describeSchema({ $ref: '#/components/schemas/Key' }, components).properties
    expect(label!.view).toMatchObject({ type: 'string or null', notes: ['at most 100 characters'] })
    expect(kind!.view.notes).toEqual(['always "Bearer"'])
  })

  it('refuses a $ref to a schema the document does not have', () => {
    expect(() => describeSchema({ $ref: '#/components/schemas/Nope' }, components)).toThrow(/missing schema/)
  })
})

describe('exampleOf', () => {
  it('builds an example from a schema, using its own examples and constants first', () => {
    expect(exampleOf({ $ref: '#/components/schemas/PostList' }, components)).toEqual({
      posts: [{ slug: 'a-post', date: '2025-07-09' }],
    })
    expect(exampleOf({ $ref: '#/components/schemas/Key' }, components)).toEqual({ label: 'string', kind: 'Bearer' })
    expect(exampleOf({ $ref: '#/components/schemas/Tree' }, components)).toBeDefined()
  })
})

describe('samples', () => {
  const text = (segments: Segment[]) => segments.map((s) => (typeof s === 'string' ? s : `<${s.key}>`)).join('')
  const read: Endpoint = {
    method: 'GET',
    path: '/api/v1/posts/{slug}',
    operationId: 'getPost',
    summary: '',
    tags: [],
    security: [{}, { bearer: [] }],
    parameters: [{ name: 'slug', in: 'path', required: true, example: "it's", schema: { type: 'string' } }],
    responses: {},
  }

  it('puts a key slot in the Authorization header of a read, quoted for each language', () => {
    const s = samples(read, 'https://x.example')
    expect(text(s.curl)).toBe(
      `curl -s 'https://x.example/api/v1/posts/it's' \\\n  -H 'Authorization: Bearer <shell>'`.replace(
        "it's",
        "it'\\''s",
      ),
    )
    expect(text(s.js)).toContain(
      `fetch('https://x.example/api/v1/posts/it\\'s', {\n  headers: { Authorization: 'Bearer <js>' },`,
    )
    expect(text(s.python)).toContain(`headers={'Authorization': 'Bearer <python>'}`)
  })

  it('writes a JSON body as a Python literal', () => {
    const post: Endpoint = {
      ...read,
      method: 'POST',
      path: '/agent/identity',
      security: [],
      parameters: [],
      requestBody: { content: { 'application/json': { example: { type: 'anonymous', label: null, on: true } } } },
    }
    expect(text(samples(post, 'https://x.example').python)).toContain(
      `json={'type': 'anonymous', 'label': None, 'on': True}`,
    )
  })
})
