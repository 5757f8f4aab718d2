/**
 * The building blocks of the schemas of the OpenAPI document: a URI, a bounded string, a
 * constant, an enumeration, a bounded list. Each schema module (articles, errors, credentials,
 * discovery) composes them. Every string and list carries its bound (OWASP API4:2023,
 * unrestricted resource consumption), taken from the limit the code holds it to.
 */
import { SENT_URL_MAX } from '../../model/wire-limits.ts'

/** An absolute URL the service writes (model/wire-limits.ts). */
export const uri = { type: 'string', format: 'uri', maxLength: SENT_URL_MAX } as const
/** A string of at most `max` characters. */
export const text = (max: number) => ({ type: 'string', maxLength: max }) as const
/** `type` stands beside every `const` and `enum`, so that client generators type them as strings. */
export const constant = (value: string) => ({ type: 'string', const: value }) as const
export const oneOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] }) as const
/** A list of at most `max` items. */
export const list = (items: object, max: number) => ({ type: 'array', items, maxItems: max }) as const
/** An RFC 3339 timestamp as toISOString writes it (24 characters for the years 0000 to 9999). */
export const timestamp = { type: 'string', format: 'date-time', maxLength: 24 } as const

/**
 * One line the service writes of its own (a name, a version, a path, a summary, an identifier
 * of a protocol): test/http/openapi-owasp.test.ts holds every such value of the documents to it.
 */
export const LINE_MAX = 200
/**
 * The most items of a list the service makes of its own things (endpoints, scopes, grant types,
 * methods, keys, links): the same test holds the endpoint table and the policy to it.
 */
export const OWN_LIST_MAX = 64
