/**
 * OAI-PMH resumption tokens (§3.5): opaque, expiring, and answered by any replica at any time
 * without server state. A token is the list's query and the position after its last record,
 * sealed with AES-256-GCM under a key derived from the service's signing key (shared by every
 * replica through the store, kept across restarts): a forged or altered token fails to open.
 */
import { hkdfSync, type KeyObject } from 'node:crypto'
import { open, seal } from '../auth/sealed-box.ts'
import { OaiError } from './xml.ts'

/** What a list answers (ListIdentifiers or ListRecords) and for which arguments. */
export interface ListQuery {
  verb: 'ListIdentifiers' | 'ListRecords'
  metadataPrefix: string
  set?: string
  /** Inclusive bounds in seconds since the epoch, as the datestamps are. */
  fromSec?: number
  untilSec?: number
}

/** A place in the harvest order (datestamp, then slug): the next page starts after it. */
export interface HarvestPosition {
  sec: number
  slug: string
}

export interface ResumptionState {
  query: ListQuery
  after: HarvestPosition
  /** Records of the list answered before the next page (§3.5.1 `cursor`). */
  cursor: number
  /** Seconds since the epoch. */
  expiresSec: number
}

/** Longer than any token this service makes: a longer one is refused before it is opened. */
export const TOKEN_MAX_LENGTH = 1024
const VERSION = 1

/** The sealing key of tokens, derived once from the signing key's private half. */
export function tokenKey(privateKey: KeyObject): Buffer {
  const d = String(privateKey.export({ format: 'jwk' }).d)
  return Buffer.from(hkdfSync('sha256', d, 'lattice-oai-pmh', 'resumption-token', 32))
}

export function sealToken(key: Buffer, state: ResumptionState): string {
  const { query: q, after, cursor, expiresSec } = state
  const plain = JSON.stringify([
    VERSION,
    q.verb,
    q.metadataPrefix,
    q.set,
    q.fromSec,
    q.untilSec,
    after.sec,
    after.slug,
    cursor,
    expiresSec,
  ])
  return seal(plain, key)
}

const bad = (why: string) =>
  new OaiError('badResumptionToken', `${why}; resume with the token of the previous answer unchanged, or start over.`)

/**
 * The state sealed in a token for `verb`, or badResumptionToken (§3.6) when it is not one of
 * ours, was altered, belongs to another verb's list, or has expired.
 */
export function openToken(key: Buffer, token: string, verb: ListQuery['verb'], nowSec: number): ResumptionState {
  if (token.length > TOKEN_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token))
    throw bad('The token is not one of this repository')
  let fields: unknown
  try {
    fields = JSON.parse(open(token, key))
  } catch {
    throw bad('The token is not one of this repository, or was altered')
  }
  const state = readState(fields)
  if (!state) throw bad('The token is not one of this repository')
  if (state.query.verb !== verb) throw bad(`The token continues a ${state.query.verb} list, not ${verb}`)
  if (state.expiresSec <= nowSec) throw bad('The token has expired')
  return state
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v)
const optional = <T>(v: unknown, is: (v: unknown) => v is T): v is T | null | undefined => v == null || is(v)
const isString = (v: unknown): v is string => typeof v === 'string'

function readState(fields: unknown): ResumptionState | undefined {
  if (!Array.isArray(fields) || fields.length !== 10 || fields[0] !== VERSION) return undefined
  const [, verb, metadataPrefix, set, fromSec, untilSec, sec, slug, cursor, expiresSec] = fields
  if (verb !== 'ListIdentifiers' && verb !== 'ListRecords') return undefined
  if (!isString(metadataPrefix) || !optional(set, isString) || !optional(fromSec, isInt) || !optional(untilSec, isInt))
    return undefined
  if (!isInt(sec) || !isString(slug) || !isInt(cursor) || !isInt(expiresSec)) return undefined
  const query: ListQuery = {
    verb,
    metadataPrefix,
    ...(set == null ? {} : { set }),
    ...(fromSec == null ? {} : { fromSec }),
    ...(untilSec == null ? {} : { untilSec }),
  }
  return { query, after: { sec, slug }, cursor, expiresSec }
}
