import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server'

/**
 * The revision of the per-request envelope (MCP 2026-07-28, Basic, Versioning:
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning): stateless requests
 * carrying their version, client info and capabilities in `params._meta`, probed with server/discover.
 */
export const MODERN_PROTOCOL = '2026-07-28'

/**
 * Every revision the endpoint answers, newest first: the 2026 envelope, and the 2025-era
 * `initialize` revisions the SDK serves statelessly on the same URL. server/discover lists the
 * 2026 ones (the only ones it can select), the server card all of them.
 */
export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL, ...SUPPORTED_PROTOCOL_VERSIONS]

/** The newest 2025-era revision, the one a 2025 client is offered. */
export const LEGACY_PROTOCOL = SUPPORTED_PROTOCOL_VERSIONS[0]!

/** `_meta` keys of the 2026 envelope (MCP 2026-07-28, Basic, `_meta`). */
export const META = {
  protocolVersion: PROTOCOL_VERSION_META_KEY,
  clientInfo: CLIENT_INFO_META_KEY,
  clientCapabilities: CLIENT_CAPABILITIES_META_KEY,
  serverInfo: SERVER_INFO_META_KEY,
} as const
