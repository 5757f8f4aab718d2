/**
 * The token-endpoint reference: oidc-provider's client_credentials grant with private_key_jwt
 * client authentication, issuing JWT access tokens: per request, one assertion verified and one
 * token signed, the same work as our jwt-bearer exchange.
 * Usage: node oidc.ts <port> <client-public-jwk.json>
 */
import { readFileSync } from 'node:fs'
import { generateKeyPairSync } from 'node:crypto'
import Provider from 'oidc-provider'

const [port, clientJwkFile] = process.argv.slice(2)
const issuer = `http://127.0.0.1:${port}`
const clientJwk = JSON.parse(readFileSync(clientJwkFile!, 'utf8'))
const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'bench-client',
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      id_token_signed_response_alg: 'ES256',
      jwks: { keys: [clientJwk] },
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    },
  ],
  jwks: { keys: [{ ...signing, alg: 'ES256', use: 'sig', kid: 'bench' }] },
  clientAuthMethods: ['private_key_jwt'],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'https://bench.example/api',
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'read',
        audience: 'https://bench.example/api',
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'ES256' } },
      }),
    },
  },
})
provider.listen(Number(port), () => console.log('ready'))
