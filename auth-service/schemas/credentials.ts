/**
 * The schemas of the credential flows: API keys, agent identities, the token and revocation
 * endpoints, client registration (RFC 7591) and the authorization decision. Request fields carry
 * the limits the code enforces.
 */
import { API_KEY_LENGTH, API_KEY_PATTERN, API_KEY_PREFIX_LENGTH } from '../auth/api-keys.ts'
import { IDENTITY_ID_LENGTH } from '../auth/identities.ts'
import { GRANTS, ID_JAG, SCOPES } from '../auth/policy.ts'
import { CLIENT_METADATA_LIMITS, FIELD_LIMITS, LABEL_MAX, LIFETIMES, type FieldName } from '../defaults.ts'
import { constant, list, oneOf, text, timestamp, uri } from './shared.ts'

/**
 * A lifetime in seconds, at most `max` (defaults.ts LIFETIMES). A credential the service issues
 * is bounded by the field that takes it back (FIELD_LIMITS): a token it could not read back would
 * be of no use.
 */
const seconds = (max: number) => ({ type: 'integer', format: 'int32', minimum: 0, maximum: max }) as const
/** Seconds since 1970 of a JavaScript date: ECMAScript's time values reach ±8.64e15 ms (§21.4.1.22). */
const epochSeconds = { type: 'integer', format: 'int64', minimum: 0, maximum: 8_640_000_000_000 } as const
const scopes = list(oneOf(SCOPES), SCOPES.length)

/** A request field, bounded as the code bounds it (FIELD_LIMITS). */
const field = (name: FieldName, extra: object = {}) =>
  ({ type: 'string', maxLength: FIELD_LIMITS[name], ...extra }) as const

export const CREDENTIAL_SCHEMAS = {
  ApiKey: {
    type: 'object',
    properties: {
      key: {
        ...text(API_KEY_LENGTH),
        pattern: API_KEY_PATTERN,
        description: 'The secret key, shown only in this response. Send it as a bearer value.',
      },
      prefix: {
        ...text(API_KEY_PREFIX_LENGTH),
        description: 'The leading, non-secret part of the key, to recognise it later.',
      },
      token_type: constant('Bearer'),
      scopes,
      expires_in: { ...seconds(LIFETIMES.apiKey), description: 'Seconds until the key expires.' },
      label: { type: ['string', 'null'], maxLength: LABEL_MAX, description: 'The label sent at issuance, or null.' },
    },
    required: ['key', 'prefix', 'token_type', 'scopes', 'expires_in', 'label'],
    additionalProperties: false,
  },
  IdentityRequest: {
    oneOf: [
      { type: 'object', properties: { type: constant('anonymous') }, required: ['type'] },
      {
        type: 'object',
        properties: {
          type: constant('identity_assertion'),
          assertion_type: constant(ID_JAG),
          assertion: field('assertion'),
        },
        required: ['type', 'assertion_type', 'assertion'],
      },
      {
        type: 'object',
        properties: { type: constant('service_auth'), login_hint: field('login_hint') },
        required: ['type', 'login_hint'],
      },
    ],
  },
  IdentityRegistration: {
    type: 'object',
    properties: {
      registration_id: text(IDENTITY_ID_LENGTH),
      registration_type: constant('anonymous'),
      identity_assertion: {
        ...text(FIELD_LIMITS.assertion),
        description: 'A JWT signed by this service; post it to the token endpoint as `assertion`.',
      },
      assertion_expires: timestamp,
      expires_in: {
        ...seconds(LIFETIMES.identityAssertion),
        description: 'Seconds until the identity_assertion expires.',
      },
      scopes,
      claim_token: {
        ...text(FIELD_LIMITS.claim_token),
        description: 'Returned once; only for the optional claim ceremony.',
      },
      claim_token_expires: timestamp,
      claim_url: uri,
      token_endpoint: uri,
      resource: uri,
    },
    required: ['registration_id', 'registration_type', 'identity_assertion', 'claim_token'],
    additionalProperties: false,
  },
  TokenRequest: {
    type: 'object',
    properties: {
      grant_type: oneOf([GRANTS.jwtBearer, GRANTS.authorizationCode, GRANTS.refreshToken, GRANTS.claim]),
      assertion: field('assertion', { description: 'The identity_assertion (jwt-bearer grant).' }),
      code: field('code', {
        description: 'The authorization code (authorization_code grant); single use, one minute.',
      }),
      code_verifier: field('code_verifier', {
        description: 'The PKCE verifier of the code_challenge (authorization_code grant).',
      }),
      redirect_uri: field('redirect_uri', {
        format: 'uri',
        description: 'The redirect_uri of the authorization request (authorization_code grant).',
      }),
      refresh_token: field('refresh_token', {
        description: 'The refresh token (refresh_token grant); each use returns a new one and retires this one.',
      }),
      resource: field('resource', {
        format: 'uri',
        description:
          'The protected resource the token is for (RFC 8707): {base_url}/api/v1 (the default) or {base_url}/mcp. ' +
          'The token is valid only there.',
      }),
      scope: field('scope', { description: 'Optional, space-separated subset of the scopes.' }),
      claim_token: field('claim_token', { description: 'The claim token (claim grant).' }),
      client_id: field('client_id', {
        description: 'The client (authorization_code and refresh_token grants); ignored by the jwt-bearer grant.',
      }),
    },
    required: ['grant_type'],
  },
  TokenResponse: {
    type: 'object',
    properties: {
      access_token: { ...text(FIELD_LIMITS.token), description: 'An RFC 9068 JWT (typ at+jwt).' },
      token_type: constant('Bearer'),
      expires_in: seconds(LIFETIMES.accessToken),
      scope: text(FIELD_LIMITS.scope),
      refresh_token: {
        ...text(FIELD_LIMITS.refresh_token),
        description:
          'Issued by the authorization_code and refresh_token grants to clients registered for refresh_token; ' +
          'single use.',
      },
    },
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    additionalProperties: false,
  },
  RevocationRequest: {
    type: 'object',
    properties: { token: field('token'), token_type_hint: field('token_type_hint'), client_id: field('client_id') },
    required: ['token'],
  },
  ClientMetadata: {
    type: 'object',
    description: 'RFC 7591 §2 client metadata; fields not listed are ignored.',
    properties: {
      client_name: text(CLIENT_METADATA_LIMITS.clientName),
      redirect_uris: {
        type: 'array',
        minItems: 1,
        maxItems: CLIENT_METADATA_LIMITS.redirectUris,
        items: {
          ...uri,
          maxLength: CLIENT_METADATA_LIMITS.uriLength,
          description: 'https, or http on 127.0.0.1, [::1] or localhost (any port when used).',
        },
      },
      grant_types: {
        type: 'array',
        maxItems: CLIENT_METADATA_LIMITS.listItems,
        items: oneOf([GRANTS.authorizationCode, GRANTS.refreshToken]),
      },
      response_types: { type: 'array', maxItems: CLIENT_METADATA_LIMITS.listItems, items: constant('code') },
      token_endpoint_auth_method: constant('none'),
    },
    required: ['redirect_uris'],
  },
  ClientInformation: {
    type: 'object',
    properties: {
      client_id: text(FIELD_LIMITS.client_id),
      client_id_issued_at: epochSeconds,
      client_name: text(CLIENT_METADATA_LIMITS.clientName),
      redirect_uris: list({ ...uri, maxLength: CLIENT_METADATA_LIMITS.uriLength }, CLIENT_METADATA_LIMITS.redirectUris),
      grant_types: list(oneOf([GRANTS.authorizationCode, GRANTS.refreshToken]), CLIENT_METADATA_LIMITS.listItems),
      response_types: list(constant('code'), CLIENT_METADATA_LIMITS.listItems),
      token_endpoint_auth_method: constant('none'),
    },
    required: [
      'client_id',
      'client_id_issued_at',
      'redirect_uris',
      'grant_types',
      'response_types',
      'token_endpoint_auth_method',
    ],
    additionalProperties: false,
  },
  AuthorizationDecision: {
    type: 'object',
    properties: { transaction: field('transaction'), decision: oneOf(['approve', 'deny']) },
    required: ['transaction', 'decision'],
  },
  KeyRequest: {
    type: 'object',
    properties: { label: { type: ['string', 'null'], maxLength: LABEL_MAX } },
  },
} as const
