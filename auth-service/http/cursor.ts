import { ServiceError } from '../errors.ts'

/**
 * Paging cursors. Opaque to clients; inside, a position in the answer's order (never an offset,
 * so that a rebuild between two pages neither repeats nor skips a post that stayed) and a tag of
 * the query it was issued for: a cursor is refused with any other filters or `q`, while `limit`
 * may change from page to page. Cursors are not signed: they hold only public positions, and an
 * edited one only moves where a page starts.
 */
const VERSION = 1
/** Longer than any cursor this service makes (a slug is at most a URL segment). */
export const CURSOR_MAX_LENGTH = 600

type Field = string | number

/** The cursor resuming after `position` in the answers to `query` (a canonical string of the filters). */
export function encodeCursor(query: string, position: readonly Field[]): string {
  return Buffer.from(JSON.stringify([VERSION, queryTag(query), ...position])).toString('base64url')
}

/**
 * The position held by a cursor issued for `query`, checked by `read` (undefined when malformed);
 * anything else is a 400 invalid_request saying what to do.
 */
export function decodeCursor<P>(raw: string, query: string, read: (fields: readonly unknown[]) => P | undefined): P {
  const refuse = (why: string) =>
    new ServiceError(
      'invalid_request',
      `"cursor" ${why}; pass the next_cursor of the previous page unchanged, or omit it to start over.`,
    )
  if (raw.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) throw refuse('is not a cursor of this API')
  let fields: unknown
  try {
    fields = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
  } catch {
    throw refuse('is not a cursor of this API')
  }
  if (!Array.isArray(fields) || fields[0] !== VERSION || typeof fields[1] !== 'string')
    throw refuse('is not a cursor of this API')
  if (fields[1] !== queryTag(query))
    throw refuse('belongs to a query with other filters (a cursor is only valid with the same filters and q)')
  const position = read(fields.slice(2))
  if (position === undefined) throw refuse('is not a cursor of this API')
  return position
}

/**
 * FNV-1a of the query, in base 36: it tells queries apart, and a collision is harmless (a
 * position is meaningful in any query), so a fast hash serves.
 */
function queryTag(query: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < query.length; i++) hash = Math.imul(hash ^ query.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}
