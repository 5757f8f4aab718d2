/**
 * The building blocks of the schemas of the OpenAPI document: a URI, a string, a constant, an
 * enumeration. Each schema module (articles, errors, credentials, discovery) composes them.
 */

export const uri = { type: 'string', format: 'uri' } as const
export const str = { type: 'string' } as const
/** `type` stands beside every `const` and `enum`, so that client generators type them as strings. */
export const constant = (value: string) => ({ type: 'string', const: value }) as const
export const oneOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] }) as const
