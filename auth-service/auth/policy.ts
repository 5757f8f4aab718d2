/**
 * The scopes this host grants (docs/api.md#credentials-api-keys-and-the-agent-flow): an API key
 * carries both, an access token both unless the `scope` of its request narrowed it.
 */
export const SCOPES = ['research.read', 'research.search'] as const
export type Scope = (typeof SCOPES)[number]

/** `<prefix>_live_<secret>`: the prefix names the service, so a leaked key is recognisable. */
export const API_KEY_PREFIX = 'lat'

export const GRANTS = {
  jwtBearer: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
  /** The profile's claim-polling grant (RFC 8628-shaped); this host never completes a claim. */
  claim: 'urn:agent-auth:grant-type:claim',
  /** RFC 6749 §4.1 with PKCE (RFC 7636, S256 only): how MCP clients obtain tokens. */
  authorizationCode: 'authorization_code',
  /** RFC 6749 §6; refresh tokens rotate on every use. */
  refreshToken: 'refresh_token',
} as const

/** Refresh tokens carry a recognisable prefix, like API keys: `<prefix>_rt_<secret>`. */
export const REFRESH_TOKEN_PREFIX = `${API_KEY_PREFIX}_rt_`

export const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag'

/** JWT `typ` values: distinct so neither token can stand in for the other (RFC 8725 §3.11). */
export const TOKEN_TYPES = {
  accessToken: 'at+jwt',
  identityAssertion: 'agent-identity+jwt',
} as const
