import type { Segment } from './samples'

export interface ClientConfig {
  id: string
  label: string
  /** Where the text goes, in one sentence. */
  where: string
  text: Segment[]
}

/** The protocol revision the raw example speaks (MCP 2025-11-25, Streamable HTTP transport). */
export const MCP_PROTOCOL_VERSION = '2025-11-25'

/**
 * Ready-to-paste configurations of the MCP endpoint for common clients. Every client here speaks
 * Streamable HTTP ("type": "http"): one URL taking POSTs of JSON-RPC messages. Reads need no
 * credential, so the plain configuration works as is; clients that support MCP authorization
 * can also get a token themselves from the discovery documents, and a key, when one is given,
 * is sent as a bearer header.
 */
export function mcpClientConfigs(base: string): ClientConfig[] {
  const url = `${base}/mcp`
  const json = (value: object) => JSON.stringify(value, null, 2)
  return [
    {
      id: 'mcp-json',
      label: 'mcpServers JSON',
      where: 'For clients configured with an mcpServers file (Claude Desktop, Cursor, a project .mcp.json).',
      text: [json({ mcpServers: { lattice: { type: 'http', url } } })],
    },
    {
      id: 'mcp-json-key',
      label: 'mcpServers JSON with a key',
      where: 'The same, identified by your API key (sent as a bearer header on every request).',
      text: [
        `{\n  "mcpServers": {\n    "lattice": {\n      "type": "http",\n` +
          `      "url": ${JSON.stringify(url)},\n      "headers": {\n        "Authorization": "Bearer `,
        { key: 'json' },
        `"\n      }\n    }\n  }\n}`,
      ],
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'A command for Claude Code; add the --header line to send your key.',
      text: [
        `claude mcp add --transport http lattice '${url}' \\\n  --header 'Authorization: Bearer `,
        { key: 'shell' },
        `'`,
      ],
    },
    {
      id: 'vscode',
      label: 'VS Code',
      where: 'For .vscode/mcp.json in a workspace (VS Code lists servers under "servers").',
      text: [json({ servers: { lattice: { type: 'http', url } } })],
    },
    {
      id: 'raw',
      label: 'Raw HTTP',
      where: 'What a client sends first: an initialize request, answered with JSON or an event stream.',
      text: [
        `curl -s -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n` +
          `  -H 'Accept: application/json, text/event-stream' \\\n  -d '${JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: MCP_PROTOCOL_VERSION,
              capabilities: {},
              clientInfo: { name: 'curl', version: '1.0.0' },
            },
          })}'`,
      ],
    },
  ]
}
