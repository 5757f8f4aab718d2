import type { APIRoute } from 'astro'
import { SITE } from '../lib/site'

/** The guide an agent reads (agent_auth.skill): discovery, the ordered flow, errors and recovery. */
export const GET: APIRoute = ({ site }) => {
  const base = new URL(site!).origin
  const text =
    `# auth.md: ${SITE.name}

You are an agent. This service publishes research articles through a JSON API at \`${base}/api/v1\`.
Every read is public: you may call it with no credentials at all. A credential only tells the
service who you are. If you want one, follow the steps below in order.

- Protected resource: \`${base}/api/v1\`
- Scopes: \`research.read\` (list and fetch articles), \`research.search\` (search). Every credential issued ` +
    `here carries both.
- Authorization server: \`${base}\` (same origin)
- MCP server: \`${base}/mcp\`, a second protected resource with the same credentials (see MCP at the end)

## Step 1: Discover

A 401 from the API carries the metadata address:

\`\`\`http
HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource"
\`\`\`

Fetch it, then the authorization server metadata it names:

\`\`\`sh
curl -s ${base}/.well-known/oauth-protected-resource
curl -s ${base}/.well-known/oauth-authorization-server
\`\`\`

The protected resource metadata (RFC 9728) gives \`resource\`, \`authorization_servers\`,
\`scopes_supported\`, \`bearer_methods_supported\` (\`header\`), \`resource_name\` and
\`resource_logo_uri\`. Show the name and logo to your user before you send an
\`identity_assertion\` or \`service_auth\` body; skip that for \`anonymous\`.

The authorization server metadata (RFC 8414) gives \`issuer\`, \`token_endpoint\`,
\`revocation_endpoint\`, \`jwks_uri\`, \`grant_types_supported\`, \`identity_types_supported\` and the
\`agent_auth\` object: \`skill\` (this document), \`identity_endpoint\`, \`claim_endpoint\` and
\`events_endpoint\`.

## Step 2: Pick a method

| method | on this host |
| --- | --- |
| \`identity_assertion\` with an ID-JAG (\`urn:ietf:params:oauth:token-type:id-jag\`) | not enabled: the host ` +
    `keeps no issuer trust list (\`issuer_not_enabled\`) |
| \`service_auth\` with a \`login_hint\` | not enabled: the host has no end-user accounts ` +
    `(\`service_auth_not_enabled\`) |
| \`anonymous\` | **the working method** |

## Step 3: Register

\`\`\`sh
curl -s -X POST ${base}/agent/identity \\
  -H 'Content-Type: application/json' \\
  -d '{"type": "anonymous"}'
\`\`\`

The response carries \`identity_assertion\` (a JWT signed by this service, valid for 30 days,
\`assertion_expires\`) and \`claim_token\` (returned once; not needed for normal use). Keep the
\`identity_assertion\`: it is your long-lived identity. Treat both as secrets.

## Step 4: Claim (optional, skip it)

Claiming ties an identity to a person; it adds no scopes. This host does not complete claims:
\`POST ${base}/agent/identity/claim\` answers \`claimed_or_in_flight\`, and the claim grant at the
token endpoint answers \`authorization_pending\`. Exchange your \`identity_assertion\` instead.

## Step 5: Exchange

\`\`\`sh
curl -s -X POST ${base}/oauth2/token \\
  -d grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer \\
  -d assertion="$IDENTITY_ASSERTION" \\
  -d resource=${base}/api/v1
\`\`\`

Answer (RFC 6749 §5.1): \`{"access_token": "…", "token_type": "Bearer", "expires_in": 3600, "scope": ` +
    `"research.read research.search"}\`.
The access token is an RFC 9068 JWT for one hour. \`client_id\` is accepted and ignored; no
client authentication is used. You may ask for less with \`scope=research.read\`. You can
exchange the same \`identity_assertion\` again whenever you need a fresh access token.

## Step 6: Use

\`\`\`sh
curl -s ${base}/api/v1/search?q=latency -H "Authorization: Bearer $ACCESS_TOKEN"
\`\`\`

## Step 7: Revoke

\`\`\`sh
curl -s -X POST ${base}/oauth2/revoke -d token="$ACCESS_TOKEN" -d token_type_hint=access_token
\`\`\`

Always 200 (RFC 7009), also for tokens that are unknown or already revoked. The token is refused
everywhere at once. Then run Step 5 again for a fresh one. Revoking your \`identity_assertion\` the
same way removes your identity; an API key from \`POST ${base}/api/v1/keys\` is revoked the same way too.

## Recovery rules

- A 401 for a token that worked: exchange again once (Step 5); if that fails, restart at Step 1.
- \`invalid_grant\` at the token endpoint: your identity is gone or expired; register again (Step 3).
- 5xx or 503: retry with exponential backoff (honour \`Retry-After\`).
- Any other 4xx: do not retry the same request; fix it as the table below says.

## Another grant: authorization code with PKCE (a person at a browser)

MCP clients and other OAuth 2.1 clients that can open a browser for a person use the
authorization code grant instead of Steps 2 to 5. The authorization server metadata lists
\`authorization_endpoint\` (\`${base}/oauth2/authorize\`), \`registration_endpoint\`
(\`${base}/oauth2/register\`), \`response_types_supported\` (\`code\`),
\`code_challenge_methods_supported\` (\`S256\`) and \`client_id_metadata_document_supported\` (true).

1. Identify the client, one of two ways (the first is preferred; MCP clients of 2026 use it):
   - a client ID metadata document: your \`client_id\` is the https URL (with a path) of a JSON
     document whose \`client_id\` is that same URL, with \`redirect_uris\` and \`client_name\`.
     It is fetched over https without following redirects, within 5 s and 5 KB, as
     \`application/json\`, from a public address only; or
   - dynamic registration (RFC 7591), the fallback for a client without such a document: \`POST ` +
    `${base}/oauth2/register\` with
     \`{"client_name": "…", "redirect_uris": ["http://127.0.0.1:33418/callback"], "grant_types": ` +
    `["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none"}\`;
     the 201 answer carries your \`client_id\`. Clients are public: no secret is issued.
   Redirect URIs are https, or http on \`127.0.0.1\`, \`[::1]\` or \`localhost\` (any port when used); they ` +
    `match exactly.
   \`client_name\` is plain visible text: control, bidi, zero-width and other invisible characters are refused.
2. Send the person's browser to
   \`${base}/oauth2/authorize?response_type=code&client_id=…&redirect_uri=…&code_challenge=…` +
    `&code_challenge_method=S256&state=…&resource=${base}/api/v1\`
   (\`scope\` optional). PKCE with S256 is required. The consent page names your client; there are
   no accounts: continuing creates an anonymous identity for you.
   A request that cannot be used (client, redirect URI, \`response_type\`, PKCE, \`scope\`,
   \`resource\`, \`state\`) gets an error page here that says why; it is never sent back to you.
3. The browser comes back to your redirect URI with \`code\`, \`state\` and \`iss\` (check both),
   or with \`error=access_denied\` when the person cancels.
4. Within 60 seconds, once:

\`\`\`sh
curl -s -X POST ${base}/oauth2/token \\
  -d grant_type=authorization_code -d code="$CODE" -d code_verifier="$VERIFIER" \\
  -d redirect_uri="$REDIRECT_URI" -d client_id="$CLIENT_ID" -d resource=${base}/api/v1
\`\`\`

The answer adds a \`refresh_token\` when your client registered the \`refresh_token\` grant. Each
refresh (\`grant_type=refresh_token\`, \`refresh_token\`, \`client_id\`) returns a new one: keep only
the newest. Presenting a used refresh token (or code) again revokes everything issued from it.
Revoke a refresh token at \`${base}/oauth2/revoke\` like any other token.

## Errors

Error bodies are \`{"error": "<code>", "error_description": "<what to fix>"}\`.

| code | status | where | what to do |
| --- | --- | --- | --- |
| \`invalid_request\` | 400 | anywhere | The body or a parameter is malformed; fix it as the description says. |
| \`anonymous_not_enabled\` | 400 | \`/agent/identity\` | Anonymous registration is off; pick another method. |
| \`service_auth_not_enabled\` | 400 | \`/agent/identity\` | The method is off here; use \`anonymous\`. |
| \`issuer_not_enabled\` | 400 | \`/agent/identity\` | No issuer trust list; use \`anonymous\`. |
| \`claimed_or_in_flight\` | 400 | \`/agent/identity/claim\` | Exchange your \`identity_assertion\` instead. |
| \`invalid_grant\` | 400 | \`/oauth2/token\` | Register again at \`/agent/identity\` (authorization code ` +
    `grant: start the authorization again). |
| \`invalid_target\` | 400 | \`/oauth2/token\`, \`/oauth2/authorize\` (error page) | Use ` +
    `\`resource=${base}/api/v1\` (or \`${base}/mcp\` for the MCP server). |
| \`invalid_scope\` | 400 | \`/oauth2/token\`, \`/oauth2/authorize\` (error page) | Ask only for ` +
    `\`research.read\` and/or \`research.search\`. |
| \`unsupported_grant_type\` | 400 | \`/oauth2/token\` | Use the jwt-bearer grant (or the claim grant). |
| \`authorization_pending\` | 400 | \`/oauth2/token\` | Honour the polling interval; this host does not ` +
    `complete claims. |
| \`invalid_client\` | 400 | \`/oauth2/authorize\` (error page) | The client_id is not registered, or its ` +
    `metadata document cannot be used; the page says why. |
| \`invalid_redirect_uri\` | 400 | \`/oauth2/register\`, \`/oauth2/authorize\` (error page) | Use an https or ` +
    `loopback redirect URI, exactly as registered. |
| \`invalid_client_metadata\` | 400 | \`/oauth2/register\` | Register a public client ` +
    `(\`token_endpoint_auth_method: none\`) for \`authorization_code\` (and \`refresh_token\`), with a ` +
    `plain visible \`client_name\`. |
| \`unsupported_response_type\` | 400 | \`/oauth2/authorize\` (error page) | Use \`response_type=code\`. |
| \`access_denied\` | 400 | redirect after the consent page | The person cancelled; ask them again later. |
| \`invalid_token\` | 401 | \`/api/v1/*\` | Drop the credential; exchange again once, then restart at Step 1. |
| \`insufficient_scope\` | 403 | \`/api/v1/*\` | Exchange again without narrowing \`scope\`. |
| \`invalid_origin\` | 403 | \`/mcp\` | A web page of another origin may not call \`/mcp\`; call it from a ` +
    `client that is not a browser. |
| \`not_found\` | 404 | \`/api/v1/*\` | Unknown slug or path; see \`${base}/api/v1\`. |
| \`method_not_allowed\` | 405 | anywhere | Use the method in the \`Allow\` header. |
| \`request_timeout\` | 408 | anywhere | Send the whole request promptly. |
| \`precondition_failed\` | 412 | \`/api/v1/*\` reads | \`If-Match\` or \`If-Unmodified-Since\` did not hold: ` +
    `the answer changed; read it again without them. |
| \`payload_too_large\` | 413 | anywhere | Send a smaller body. |
| \`unsupported_media_type\` | 415 | \`/api/v1/keys\` | Send JSON or a form, or no body. |
| \`rate_limited\` | 429 | anywhere | Too many requests, or too many refused credentials from your address: ` +
    `wait \`Retry-After\` seconds; the \`RateLimit\` headers give your budget. |
| \`header_fields_too_large\` | 431 | anywhere | Send smaller headers (at most 16 KB in all). |
| \`temporarily_unavailable\` | 503 | anywhere | Retry after \`Retry-After\` seconds. |
| \`server_error\` | 500 | anywhere | Retry with backoff. |

\`${base}/agent/event/notify\` receives Security Event Tokens from identity providers (RFC 8935);
agents do not call it. It answers errors as \`{"err": "<code>", "description": "…"}\`: \`invalid_request\`
for a body that is not one SET sent as \`application/secevent+jwt\`, and \`invalid_issuer\` for every
SET, since this host trusts no issuer.

## MCP

The same articles over the Model Context Protocol (Streamable HTTP, stateless) at \`${base}/mcp\`,
protocol 2026-07-28 (\`server/discover\`, no \`initialize\`) and 2025-11-25 on the same URL. Its server card,
\`${base}/mcp/server-card\`, names the endpoint, the versions, the tools and the authorization it accepts.
Tools \`search\` (\`query\`) and \`fetch\` (\`id\`) answer in the shape of ChatGPT connectors (results of
\`id\`, \`title\`, \`url\`; an article's \`text\`, \`url\` and \`metadata\`);
tools \`search_posts\` (\`q\`, \`limit\`, \`cursor\`), \`get_post\` (\`slug\`) and \`list_posts\` (\`limit\`, ` +
    `\`cursor\`, \`tag\`, \`author\`, \`updated_since\`), which answer
exactly what the REST reads answer (as \`structuredContent\` with an \`outputSchema\`), and every article
as a \`text/markdown\` resource at its markdown address (template \`${base}/posts/{slug}.md\`).
No credential is needed. Add it to an MCP client:

\`\`\`json
{
  "mcpServers": {
    "lattice-research": { "type": "http", "url": "${base}/mcp" }
  }
}
\`\`\`

To identify yourself, add \`"headers": {"Authorization": "Bearer <credential>"}\` with an API key, or
with an access token issued for this resource: in Step 5 send \`resource=${base}/mcp\` (a token for
\`${base}/api/v1\` is refused here, and one for \`/mcp\` is refused on the API). A bad credential gets
a 401 whose \`WWW-Authenticate\` names \`${base}/.well-known/oauth-protected-resource/mcp\`. Each
message counts as one read of your budget; a bad tool argument is a tool error (\`isError\`) with the
same code and description the REST API would give.
`
  return new Response(text, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } })
}
