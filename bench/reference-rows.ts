/**
 * The references the service is measured against on this machine: nginx serving the article
 * bodies as static files, bare node:http and Express 5 servers answering the same bytes from
 * memory, and oidc-provider's token endpoint for the token exchange.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import type { createPostIndex } from '../post-index/post-index-builder.ts'
import type { readIndexEntries } from '../post-index/index-file-loader.ts'
import { freePort } from '../test/support/processes.ts'
import { NEEDS, NODE, QUICK, REPEATS, WORK, load, pinned } from './harness.ts'
import { recordLoad, type Row } from './table.ts'

/** nginx and the bare servers on the article bodies of `index`, loaded with `slugPaths`. */
export async function sameBytesReferences(
  posts: ReturnType<typeof readIndexEntries>,
  index: ReturnType<typeof createPostIndex>,
  slugs: string[],
  slugPaths: string[],
): Promise<{ bodiesFile: string; refs: Record<string, Row> }> {
  console.log('\nReferences on the same bytes')
  const bodies: Record<string, string> = {}
  for (const p of posts) bodies[p.slug] = index.detail(p.slug)!.body.toString()
  const bodiesFile = join(WORK, 'bodies.json')
  writeFileSync(bodiesFile, JSON.stringify(bodies))
  const refs: Record<string, Row> = {}
  if (NEEDS.nginx.present()) {
    const root = join(WORK, 'nginx-root')
    rmSync(root, { recursive: true, force: true })
    mkdirSync(join(root, 'api', 'v1', 'posts'), { recursive: true })
    for (const [slug, json] of Object.entries(bodies)) writeFileSync(join(root, 'api', 'v1', 'posts', slug), json)
    const port = await freePort()
    const conf = join(WORK, 'nginx.conf')
    writeFileSync(
      conf,
      `worker_processes 1; daemon off; pid ${WORK}/nginx.pid; error_log ${WORK}/nginx-error.log;
events { worker_connections 1024; }
http { access_log ${WORK}/nginx-access.log; default_type application/json; sendfile on; tcp_nopush on; ` +
        `keepalive_requests 100000;
  client_body_temp_path ${WORK}/nginx-body; proxy_temp_path ${WORK}/nginx-proxy; fastcgi_temp_path ` +
        `${WORK}/nginx-fcgi; uwsgi_temp_path ${WORK}/nginx-uwsgi; scgi_temp_path ${WORK}/nginx-scgi;
  server { listen 127.0.0.1:${port}; root ${root}; } }`,
    )
    const nginx = await pinned(
      ['nginx', '-c', conf, '-g', 'user root;'],
      `http://127.0.0.1:${port}/api/v1/posts/${slugs[0]}`,
    )
    refs.nginx = recordLoad(
      'reference: nginx, static files of the same bytes',
      load(`http://127.0.0.1:${port}`, slugPaths),
    )
    await nginx.stop()
  }
  for (const kind of ['http', 'express'] as const) {
    const port = await freePort()
    const ref = await pinned(
      [NODE, join(import.meta.dirname, 'references', 'bare-servers.ts'), kind, String(port), bodiesFile],
      `http://127.0.0.1:${port}/api/v1/posts/${slugs[0]}`,
    )
    refs[kind] = recordLoad(
      `reference: bare ${kind === 'http' ? 'node:http' : 'Express 5'}, the same bytes`,
      load(`http://127.0.0.1:${port}`, slugPaths),
    )
    await ref.stop()
  }
  return { bodiesFile, refs }
}

/** oidc-provider's token endpoint: client_credentials with a private_key_jwt assertion each. */
export async function oidcTokenReference(): Promise<Row> {
  console.log('\nReference: oidc-provider, client_credentials with private_key_jwt')
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwkFile = join(WORK, 'client-jwk.json')
  writeFileSync(jwkFile, JSON.stringify({ ...(await exportJWK(publicKey)), kid: 'client', alg: 'ES256', use: 'sig' }))
  const port = await freePort()
  const oidc = await pinned(
    [NODE, join(import.meta.dirname, 'references', 'oidc.ts'), String(port), jwkFile],
    `http://127.0.0.1:${port}/.well-known/openid-configuration`,
  )
  const tokenUrl = `http://127.0.0.1:${port}/token`
  const count = (QUICK ? 6000 : 15000) * REPEATS
  // private_key_jwt client assertions, one per request (oidc-provider refuses a replayed jti).
  const assertions = await Promise.all(
    Array.from({ length: count }, async () => {
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: 'client' })
        .setIssuer('bench-client')
        .setSubject('bench-client')
        .setAudience(tokenUrl)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey)
      return new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: jwt,
      }).toString()
    }),
  )
  const probe = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: assertions.pop(),
  })
  if (probe.status !== 200) console.warn(`  oidc-provider answered ${probe.status}: ${await probe.text()}`)
  const oidcRow = recordLoad(
    'reference: oidc-provider token endpoint',
    load(`http://127.0.0.1:${port}`, assertions, {
      method: 'POST',
      postPath: '/token',
      contentType: 'application/x-www-form-urlencoded',
    }),
  )
  await oidc.stop()
  return oidcRow
}
