import type { Schema } from './openapi'

/** A schema made readable: its type in words, its notes, and its fields, with every `$ref` resolved. */
export interface SchemaView {
  /** "object", "array of Post", "string (date-time)", "string or null". */
  type: string
  /** The component the schema came from, when it was a `$ref`. */
  ref?: string
  description?: string
  /** Constraints in words: allowed values, range, length, default. */
  notes: string[]
  properties: Array<{ name: string; required: boolean; view: SchemaView }>
  /** Alternatives of a `oneOf` / `anyOf`. */
  variants: SchemaView[]
}

type Components = Record<string, Schema>

/** The component a `$ref` names ("#/components/schemas/Post" -> Post). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1)
}

function resolve(schema: Schema, components: Components): { schema: Schema; ref?: string } {
  if (!schema.$ref) return { schema }
  const name = refName(schema.$ref)
  const target = components[name]
  if (!target) throw new Error(`The OpenAPI document refers to a missing schema "${schema.$ref}".`)
  return { schema: target, ref: name }
}

const PATTERN_SHOWN_UP_TO = 60

/**
 * Describes a schema for people. `seen` stops a schema that contains itself; a component already
 * expanded on the way down is named, not expanded again.
 */
export function describeSchema(
  input: Schema,
  components: Components,
  seen: ReadonlySet<string> = new Set(),
): SchemaView {
  const { schema, ref } = resolve(input, components)
  const view: SchemaView = {
    type: typeOf(schema, components),
    ref,
    description: schema.description ?? input.description,
    notes: [],
    properties: [],
    variants: [],
  }
  if (ref && seen.has(ref)) return view
  const inner = ref ? new Set([...seen, ref]) : seen

  if (schema.const !== undefined) view.notes.push(`always ${JSON.stringify(schema.const)}`)
  if (schema.enum) view.notes.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`)
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    view.notes.push(`${schema.minimum} to ${schema.maximum}`)
  if (schema.maxLength !== undefined) view.notes.push(`at most ${schema.maxLength} characters`)
  if (schema.default !== undefined) view.notes.push(`default ${JSON.stringify(schema.default)}`)
  if (schema.pattern && schema.pattern.length <= PATTERN_SHOWN_UP_TO) view.notes.push(`matches ${schema.pattern}`)
  const examples = schema.examples ?? (schema.example !== undefined ? [schema.example] : [])
  if (examples.length && !schema.properties) view.notes.push(`e.g. ${JSON.stringify(examples[0])}`)

  const item = schema.type === 'array' && schema.items ? resolve(schema.items, components) : undefined
  const fieldsOf = item ? describeSchema(schema.items!, components, inner) : undefined
  if (fieldsOf) {
    view.properties = fieldsOf.properties
    view.variants = fieldsOf.variants
    if (!view.notes.length) view.notes = fieldsOf.notes
  }
  const required = new Set(schema.required ?? [])
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    view.properties.push({ name, required: required.has(name), view: describeSchema(property, components, inner) })
  for (const variant of schema.oneOf ?? schema.anyOf ?? [])
    view.variants.push(describeSchema(variant, components, inner))
  return view
}

function typeOf(schema: Schema, components: Components): string {
  if (schema.oneOf || schema.anyOf) return 'one of'
  const types = ([] as string[]).concat(schema.type ?? 'any')
  const words = types.map((type) => {
    if (type === 'array' && schema.items) {
      const item = resolve(schema.items, components)
      return `array of ${item.ref ?? typeOf(item.schema, components)}`
    }
    if (type === 'object' && typeof schema.additionalProperties === 'object' && !schema.properties)
      return `object of ${typeOf(resolve(schema.additionalProperties, components).schema, components)}`
    return schema.format && type !== 'null' ? `${type} (${schema.format})` : type
  })
  return words.join(' or ')
}

const FORMAT_EXAMPLES: Record<string, string> = {
  date: '2025-07-09',
  'date-time': '2025-08-01T14:20:00.000Z',
  uri: 'https://research.example.org/…',
  'uri-template': 'https://research.example.org/…',
}

/**
 * An example value for a schema that the document gives none for: its own examples, const,
 * enum or default first, then a placeholder of the right type, so every response shows a shape.
 */
export function exampleOf(input: Schema, components: Components, depth = 0): unknown {
  const { schema } = resolve(input, components)
  if (schema.example !== undefined) return schema.example
  if (schema.examples?.length) return schema.examples[0]
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  if (schema.default !== undefined) return schema.default
  if (depth > 6) return null
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0]
  if (variant) return exampleOf(variant, components, depth + 1)
  const type = ([] as string[]).concat(schema.type ?? 'string')[0]
  switch (type) {
    case 'object':
      if (schema.properties)
        return Object.fromEntries(
          Object.entries(schema.properties).map(([name, p]) => [name, exampleOf(p, components, depth + 1)]),
        )
      return typeof schema.additionalProperties === 'object'
        ? { name: exampleOf(schema.additionalProperties, components, depth + 1) }
        : {}
    case 'array':
      return schema.items ? [exampleOf(schema.items, components, depth + 1)] : []
    case 'integer':
    case 'number':
      return schema.minimum ?? 0
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return (schema.format && FORMAT_EXAMPLES[schema.format]) ?? 'string'
  }
}
