/**
 * The XML of OAI-PMH answers (http://www.openarchives.org/OAI/openarchivesprotocol.html §3.2):
 * every answer is one OAI-PMH element with the response date, the request echoed, then the verb's
 * element or the errors. Written as text: the shapes are few and fixed.
 */
import { escapeAttribute, xmlAttributes } from '../../model/xml-text.ts'

/** Text for an element or a quoted attribute; line breaks as references, so an attribute keeps them. */
export const escapeXml = escapeAttribute

/** `<name attr="…">text</name>`, the text escaped; undefined attributes left out. */
export function element(name: string, text: string, attributes: Record<string, string | undefined> = {}): string {
  return `<${name}${xmlAttributes(attributes)}>${escapeXml(text)}</${name}>`
}

export const OAI_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/'
const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd'

/** The error codes of §3.6. */
export type OaiErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noMetadataFormats'
  | 'noSetHierarchy'

/** A request the protocol refuses with an error element (§3.6), answered with HTTP 200. */
export class OaiError extends Error {
  readonly code: OaiErrorCode
  constructor(code: OaiErrorCode, message: string) {
    super(message)
    this.name = 'OaiError'
    this.code = code
  }
}

/**
 * The whole answer (§3.2). `request` holds the arguments to echo; §3.2 says a badVerb or
 * badArgument answer echoes none, only the base URL.
 */
export function oaiDocument(now: Date, baseUrl: string, request: Record<string, string> | undefined, body: string) {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<OAI-PMH xmlns="${OAI_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    ` xsi:schemaLocation="${OAI_NAMESPACE} ${OAI_SCHEMA}">`,
    `<responseDate>${datestamp(now)}</responseDate>`,
    element('request', baseUrl, request ?? {}),
    body,
    '</OAI-PMH>\n',
  ].join('')
}

/** An error element (§3.6); several may be answered together. */
export const errorElement = (e: OaiError) => element('error', e.message, { code: e.code })

/** A UTC datestamp at the seconds granularity Identify declares (§3.3.1): YYYY-MM-DDThh:mm:ssZ. */
export const datestamp = (at: Date | number) => `${new Date(at).toISOString().slice(0, 19)}Z`
