import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignJWT, exportJWK, generateKeyPair, type JWK, type CryptoKey } from 'jose'

export interface TestIdentityProvider {
  issuer: string
  audience: string
  jwksUrl: string
  /** Signs an RS256 token; `claims` and `options` override the defaults per test. */
  mint(
    claims?: Record<string, unknown>,
    options?: { expiresIn?: number; issuer?: string; audience?: string; key?: 'good' | 'rogue'; kid?: string }
  ): Promise<string>
  close(): Promise<void>
}

/**
 * A real identity provider on a loopback port: OpenID discovery and a JWKS over HTTP, and RS256
 * tokens signed with its key (or with a "rogue" key it does not publish).
 */
export async function startTestIdentityProvider(audience = 'https://quartet.test/api'): Promise<TestIdentityProvider> {
  const good = await generateKeyPair('RS256')
  const rogue = await generateKeyPair('RS256')
  const jwk: JWK = { ...(await exportJWK(good.publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' }
  let base = ''
  const server = http.createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }))
    } else if (req.url === '/.well-known/openid-configuration') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: `${base}/`, jwks_uri: `${base}/.well-known/jwks.json` }))
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const issuer = `${base}/`
  return {
    issuer,
    audience,
    jwksUrl: `${base}/.well-known/jwks.json`,
    async mint(claims = {}, options = {}) {
      const key: CryptoKey = options.key === 'rogue' ? rogue.privateKey : good.privateKey
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key-1', typ: 'JWT' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresIn ?? 3600))
        .sign(key)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
