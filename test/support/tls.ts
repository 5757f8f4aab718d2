/**
 * A local https server with a certificate made for it: the client ID metadata document tests
 * serve documents from it, and the service trusts that certificate only (FetchOptions.ca).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { tempDir } from './temp.ts'

/** A self-signed P-256 certificate for 127.0.0.1 and localhost, valid for a day. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = tempDir('tls')
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  )
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') }
}

/** An https server on a free loopback port; `close` ends it and its connections. */
export async function serveHttps(
  tls: { key: string; cert: string },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer(tls, handler)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
