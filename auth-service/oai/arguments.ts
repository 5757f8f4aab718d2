/**
 * Reading an OAI-PMH request's arguments (§3.1.1, and each verb's arguments in §4): the verb,
 * then the arguments it takes, each at most once and in its syntax. A value that breaks its
 * syntax is badArgument, so that every argument an answer echoes (§3.2) is valid in the schema;
 * but a metadataPrefix is any name up to the length limit: one that is not a format of this
 * repository is cannotDisseminateFormat (§3.6), whatever its characters, and is not echoed when
 * the schema's metadataPrefixType would not hold it (echoedArguments).
 */
import { SET_SPEC } from './records.ts'
import type { ListQuery } from './tokens.ts'
import { OaiError } from './xml.ts'

export const VERBS = [
  'Identify',
  'ListMetadataFormats',
  'ListSets',
  'GetRecord',
  'ListIdentifiers',
  'ListRecords',
] as const
export type Verb = (typeof VERBS)[number]

export type OaiRequest =
  | { verb: 'Identify' }
  | { verb: 'ListMetadataFormats'; identifier?: string }
  | { verb: 'ListSets'; resumptionToken?: string }
  | { verb: 'GetRecord'; identifier: string; metadataPrefix: string }
  | { verb: ListQuery['verb']; resumptionToken: string }
  | { verb: ListQuery['verb']; query: ListQuery }

/** The arguments each verb takes besides `verb` (§4); `resumptionToken` is exclusive where taken. */
const TAKES: Record<Verb, readonly string[]> = {
  Identify: [],
  ListMetadataFormats: ['identifier'],
  ListSets: ['resumptionToken'],
  GetRecord: ['identifier', 'metadataPrefix'],
  ListIdentifiers: ['metadataPrefix', 'from', 'until', 'set', 'resumptionToken'],
  ListRecords: ['metadataPrefix', 'from', 'until', 'set', 'resumptionToken'],
}

/** Longest value of any argument but a resumption token: far beyond an identifier of this repository. */
export const ARGUMENT_MAX_LENGTH = 512
/** OAI-PMH.xsd's metadataPrefixType: the URI unreserved characters (§3.4). */
const METADATA_PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/
const ANY = /^[\s\S]+$/
// xs:anyURI as a scheme and characters a URI may hold: enough for any identifier worth looking up.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it keeps out.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001F\u007F<>"{}|\\^`]+$/
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/

const badArgument = (message: string) => new OaiError('badArgument', message)
const shown = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)

/** The arguments as given (name/value pairs, in order) read into a request, or the error §3.6 names. */
export function readRequest(pairs: readonly (readonly [string, string])[]): OaiRequest {
  const verbs = pairs.filter(([name]) => name === 'verb').map(([, value]) => value)
  if (verbs.length === 0)
    throw new OaiError('badVerb', 'The verb argument is missing; Identify describes this repository.')
  if (verbs.length > 1) throw new OaiError('badVerb', 'The verb argument is repeated; give it once.')
  const verb = verbs[0]! as Verb
  if (!VERBS.includes(verb))
    throw new OaiError('badVerb', `${shown(verb)} is not an OAI-PMH verb (${VERBS.join(', ')}).`)
  const args = new Map<string, string>()
  for (const [name, value] of pairs) {
    if (name === 'verb') continue
    if (!TAKES[verb].includes(name)) throw badArgument(`${verb} does not take the argument ${shown(name)}.`)
    if (args.has(name)) throw badArgument(`The argument ${name} is repeated; give it once.`)
    args.set(name, value)
  }
  const token = args.get('resumptionToken')
  if (token !== undefined) {
    if (args.size > 1) throw badArgument('resumptionToken is exclusive: give it alone with the verb.')
    // Only the verbs that take a token get here with one (TAKES).
    if (verb === 'ListSets') return { verb, resumptionToken: token }
    if (verb === 'ListIdentifiers' || verb === 'ListRecords') return { verb, resumptionToken: token }
  }
  switch (verb) {
    case 'Identify':
    case 'ListSets':
      return { verb }
    case 'ListMetadataFormats': {
      const identifier = optional(args, 'identifier', URI)
      return identifier === undefined ? { verb } : { verb, identifier }
    }
    case 'GetRecord':
      return {
        verb,
        identifier: required(args, 'identifier', URI),
        metadataPrefix: required(args, 'metadataPrefix', ANY),
      }
    default:
      return { verb, query: listQuery(verb, args) }
  }
}

function optional(args: Map<string, string>, name: string, syntax: RegExp): string | undefined {
  const value = args.get(name)
  if (value === undefined) return undefined
  if (value.length > ARGUMENT_MAX_LENGTH) throw badArgument(`${name} is longer than ${ARGUMENT_MAX_LENGTH} characters.`)
  if (!syntax.test(value)) throw badArgument(`${name} ${shown(value)} does not have the syntax the protocol gives it.`)
  return value
}

function required(args: Map<string, string>, name: string, syntax: RegExp): string {
  const value = optional(args, name, syntax)
  if (value === undefined) throw badArgument(`The argument ${name} is required.`)
  return value
}

function listQuery(verb: ListQuery['verb'], args: Map<string, string>): ListQuery {
  const metadataPrefix = required(args, 'metadataPrefix', ANY)
  const set = optional(args, 'set', SET_SPEC)
  const from = optional(args, 'from', /^[\dTZ:-]+$/)
  const until = optional(args, 'until', /^[\dTZ:-]+$/)
  const fromAt = from === undefined ? undefined : instant(from, 'from')
  const untilAt = until === undefined ? undefined : instant(until, 'until')
  if (fromAt && untilAt && fromAt.day !== untilAt.day)
    throw badArgument('from and until must have the same granularity: both days, or both seconds.')
  // §3.3.1: a day bound covers the whole day, so until=2025-08-01 includes that day's records.
  const fromSec = fromAt?.sec
  const untilSec = untilAt && (untilAt.day ? untilAt.sec + 86_399 : untilAt.sec)
  if (fromSec !== undefined && untilSec !== undefined && fromSec > untilSec)
    throw badArgument('from must not be later than until.')
  return {
    verb,
    metadataPrefix,
    ...(set === undefined ? {} : { set }),
    ...(fromSec === undefined ? {} : { fromSec }),
    ...(untilSec === undefined ? {} : { untilSec }),
  }
}

/**
 * The arguments an answer other than badVerb or badArgument echoes (§3.2): each as given, but a
 * metadataPrefix outside the schema's syntax (which the answer refuses as a format it cannot
 * disseminate), which the request element could not hold.
 */
export function echoedArguments(pairs: readonly (readonly [string, string])[]): Record<string, string> {
  return Object.fromEntries(pairs.filter(([name, value]) => name !== 'metadataPrefix' || METADATA_PREFIX.test(value)))
}

/** A UTCdatetime argument (§3.3.1): YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, the granularity Identify declares. */
function instant(value: string, name: string): { sec: number; day: boolean } {
  const day = DAY.exec(value)
  const second = day ? undefined : SECOND.exec(value)
  const parts = (day ?? second)?.slice(1).map(Number)
  const refuse = () =>
    badArgument(`${name} ${shown(value)} must be a UTC date, YYYY-MM-DD, or date-time, YYYY-MM-DDThh:mm:ssZ.`)
  if (!parts || parts[0]! < 1) throw refuse()
  const [y, mo, d, h = 0, mi = 0, s = 0] = parts as [number, number, number, number?, number?, number?]
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999: 0001-01-01 is a
  // valid date (an early bound), not 1901's.
  const at = new Date(0)
  at.setUTCFullYear(y, mo - 1, d)
  at.setUTCHours(h, mi, s)
  const ms = at.getTime()
  // It rolls 2025-02-30 over into March: a date that does not come back unchanged is not one.
  const back = at.toISOString()
  if (back.slice(0, 10) !== value.slice(0, 10) || (second && back.slice(11, 19) !== value.slice(11, 19))) throw refuse()
  return { sec: ms / 1000, day: day !== null }
}
