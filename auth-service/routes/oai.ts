import express from 'express'
import { BODY_LIMITS, OAI_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { FORM_TYPE, bodyStep, hasBody, isType } from '../http/forms.ts'
import { SERVER_INFO } from './documents.ts'
import { ARGUMENT_MAX_LENGTH, VERBS } from '../oai/arguments.ts'
import { TOKEN_MAX_LENGTH, tokenKey } from '../oai/tokens.ts'
import { answerRequest, type Repository } from '../oai/verbs.ts'
import type { ActionContext, Call, HandlerAction, Step } from '../http/action.ts'
import type { Json } from '../http/action.ts'
import { READ_ERRORS, error, markup } from './openapi-parts.ts'

/** The path of the OAI-PMH endpoint: its base URL (§3.1 of the protocol). */
export const OAI_PATH = '/oai'
const XML_TYPE = 'text/xml; charset=utf-8'
/** The protocol's specification, which the comments of auth-service/oai cite by section. */
export const OAI_PMH_SPEC = 'http://www.openarchives.org/OAI/openarchivesprotocol.html'

/**
 * The repository's contact (Identify's adminEmail): the RFC 2142 role mailbox of the site's host;
 * a host without a dot (a development origin) gets `.localdomain`, as the schema wants a domain.
 */
export const adminEmail = (host: string) => `webmaster@${host.includes('.') ? host : `${host}.localdomain`}`

function repository(ctx: ActionContext): Repository {
  const host = new URL(ctx.baseUrl).hostname
  return {
    endpoint: `${ctx.baseUrl}${OAI_PATH}`,
    host,
    repositoryName: SERVER_INFO.title,
    adminEmail: adminEmail(host),
    pageSize: ctx.oaiPageSize ?? OAI_LIMITS.pageSize,
    tokenLifetimeSeconds: OAI_LIMITS.tokenLifetimeSeconds,
    tokenKey: tokenKey(ctx.signingKey.privateKey),
    posts: () => ctx.posts(),
    now: Date.now,
  }
}

/** §3.1.2.1: every protocol answer, error or not, is a 200 with the XML. */
const send =
  (repo: Repository, pairsOf: (call: Call) => [string, string][]): Step =>
  (call) => {
    const xml = Buffer.from(answerRequest(repo, pairsOf(call)))
    call.res
      .writeHead(200, [
        ...call.headers,
        ...['Content-Type', XML_TYPE, 'Cache-Control', 'no-store', 'Content-Length', String(xml.length)],
      ])
      .end(call.req.method === 'HEAD' ? undefined : xml)
  }

/** The query: everything after the first `?` (RFC 3986 §3.4), which may itself hold `?`. */
const queryPairs = (call: Call) => [...new URLSearchParams(call.target.search ?? '')]

/** §3.1.1.2: a POST carries the arguments as a form; anything else is not an OAI-PMH request. */
const formText = bodyStep(express.text({ type: FORM_TYPE, limit: BODY_LIMITS.form }))
const onlyForms: Step = ({ req }) => {
  if (hasBody(req) && !isType(req, [FORM_TYPE]))
    throw new ServiceError('unsupported_media_type', `POST the OAI-PMH arguments as ${FORM_TYPE}, or use GET.`)
}
const formPairs = (call: Call) => [...new URLSearchParams(typeof call.body === 'string' ? call.body : '')]

const ARGUMENTS = ['verb', 'identifier', 'metadataPrefix', 'from', 'until', 'set', 'resumptionToken']
/** Each argument's schema, with the bound the code holds it to (a longer value is refused). */
const argumentSchema = (name: string): Json =>
  name === 'verb'
    ? { type: 'string', enum: [...VERBS] }
    : { type: 'string', maxLength: name === 'resumptionToken' ? TOKEN_MAX_LENGTH : ARGUMENT_MAX_LENGTH }
const ok = {
  description:
    'The OAI-PMH answer (OAI-PMH.xsd): the verb’s element, or the protocol’s error element (badVerb, ' +
    'badArgument, badResumptionToken, cannotDisseminateFormat, idDoesNotExist, noRecordsMatch, noSetHierarchy).',
  content: markup('text/xml'),
}
const description =
  `OAI-PMH 2.0 (${OAI_PMH_SPEC}): Identify, ListMetadataFormats, ListSets (tags as sets), GetRecord, ` +
  'ListIdentifiers and ListRecords in oai_dc, identifiers oai:<host>:<slug>, datestamps to the second ' +
  '(the last change), paged with expiring resumption tokens. Protocol errors are answered as 200 with an error element.'

/** GET /oai: the protocol's requests as a query string (§3.1.1.1). */
export const oaiGet: HandlerAction = {
  operation: () => ({
    tags: ['Harvesting'],
    summary: 'OAI-PMH 2.0 repository',
    description,
    parameters: ARGUMENTS.map((name) => ({
      name,
      in: 'query',
      required: name === 'verb',
      schema: argumentSchema(name),
      ...(name === 'verb' ? { example: 'Identify' } : {}),
    })),
    responses: { '200': ok, '503': READ_ERRORS['503'] },
  }),
  handle: (ctx) => [send(repository(ctx), queryPairs)],
}

/** POST /oai: the same requests as a form (§3.1.1.2). */
export const oaiPost: HandlerAction = {
  operation: () => ({
    tags: ['Harvesting'],
    summary: 'OAI-PMH 2.0 repository (arguments as a form)',
    description,
    requestBody: {
      required: true,
      content: {
        [FORM_TYPE]: {
          schema: {
            type: 'object',
            properties: Object.fromEntries(ARGUMENTS.map((a) => [a, argumentSchema(a)])),
          },
          example: { verb: 'ListRecords', metadataPrefix: 'oai_dc' },
        },
      },
    },
    responses: {
      '200': ok,
      '415': error('The body is not a form (application/x-www-form-urlencoded).', ['unsupported_media_type']),
      '503': READ_ERRORS['503'],
    },
  }),
  handle: (ctx) => [onlyForms, formText, send(repository(ctx), formPairs)],
}
