import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignJWT, exportJWK, generateKeyPair, type JWK, type CryptoKey } from 'jose'

interface SigningKey {
  kid: string
  alg: 'RS256' | 'ES256'
  privateKey: CryptoKey
  jwk: JWK
  published: boolean
}

export interface RecordedRequest {
  method: string
  url: string
  body: string
}

export interface TokenEndpointReply {
  status: number
  body: unknown
}

export interface TestIdentityProvider {
  issuer: string
  audience: string
  jwksUrl: string
  /** Every request the provider received, in order (discovery, JWKS, token). */
  requests: RecordedRequest[]
  /** Signs a token (RS256 by default); `claims` and `options` override the defaults per test. */
  mint(
    claims?: Record<string, unknown>,
    options?: { expiresIn?: number; issuer?: string; audience?: string; key?: 'good' | 'rogue'; kid?: string; alg?: 'RS256' | 'ES256' }
  ): Promise<string>
  /** Publishes a new current signing key (new kid); the old one stays published unless `retireOld`. */
  rotate(options?: { retireOld?: boolean; alg?: 'RS256' | 'ES256' }): Promise<string>
  /** A code the token endpoint exchanges (with this PKCE verifier) for an id_token carrying `claims`. */
  issueCode(
    claims: Record<string, unknown>,
    verifier: string,
    options?: { audience?: string; issuer?: string; key?: 'good' | 'rogue' }
  ): string
  /** Replaces the token endpoint's answer (null: the default code exchange). */
  tokenReply: ((form: URLSearchParams) => Promise<TokenEndpointReply> | TokenEndpointReply) | null
  /** Discovery answers this status (200: the document). */
  discoveryStatus: number
  close(): Promise<void>
}

async function newKey(kid: string, alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const pair = await generateKeyPair(alg)
  return { kid, alg, privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' }, published: true }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/**
 * A real identity provider on a loopback port: OpenID discovery, a JWKS and a token endpoint over
 * HTTP (authorization code with PKCE), tokens signed with its keys (or with a "rogue" key it does
 * not publish), and key rotation.
 */
export async function startTestIdentityProvider(audience = 'https://quartet.test/api'): Promise<TestIdentityProvider> {
  const keys: SigningKey[] = [await newKey('test-key-1', 'RS256')]
  const rogue = await newKey('test-key-1', 'RS256')
  const codes = new Map<
    string,
    { claims: Record<string, unknown>; verifier: string; audience?: string; issuer?: string; key?: 'good' | 'rogue' }
  >()
  let base = ''
  let issuer = ''
  const current = () => keys[keys.length - 1] as SigningKey

  async function sign(
    claims: Record<string, unknown>,
    options: { expiresIn?: number; issuer?: string; audience?: string; key?: 'good' | 'rogue'; kid?: string; alg?: 'RS256' | 'ES256' }
  ): Promise<string> {
    let key = options.key === 'rogue' ? rogue : current()
    if (options.alg && options.alg !== key.alg && options.key !== 'rogue') {
      const match = [...keys].reverse().find((k) => k.alg === options.alg)
      key = match ?? (await newKey(`unpublished-${options.alg}`, options.alg))
    }
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: options.kid ?? key.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 3600))
      .sign(key.privateKey)
  }

  const provider: TestIdentityProvider = {
    issuer: '',
    audience,
    jwksUrl: '',
    requests: [],
    tokenReply: null,
    discoveryStatus: 200,
    mint: (claims = {}, options = {}) => sign(claims, options),
    async rotate(options = {}) {
      if (options.retireOld) for (const key of keys) key.published = false
      const key = await newKey(`test-key-${keys.length + 1}`, options.alg ?? 'RS256')
      keys.push(key)
      return key.kid
    },
    issueCode(claims, verifier, options = {}) {
      const code = `code-${codes.size + 1}-${Math.random().toString(36).slice(2)}`
      codes.set(code, { claims, verifier, ...options })
      return code
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }

  async function tokenEndpoint(form: URLSearchParams): Promise<TokenEndpointReply> {
    if (provider.tokenReply) return provider.tokenReply(form)
    const code = form.get('code') ?? ''
    const issued = codes.get(code)
    if (form.get('grant_type') !== 'authorization_code' || !issued || issued.verifier !== form.get('code_verifier')) {
      return { status: 400, body: { error: 'invalid_grant' } }
    }
    codes.delete(code)
    const idToken = await sign(issued.claims, {
      audience: issued.audience ?? form.get('client_id') ?? '',
      ...(issued.issuer ? { issuer: issued.issuer } : {}),
      ...(issued.key ? { key: issued.key } : {})
    })
    return { status: 200, body: { access_token: 'opaque-access', token_type: 'Bearer', expires_in: 3600, id_token: idToken } }
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      provider.requests.push({ method: req.method ?? 'GET', url: req.url ?? '', body })
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
      if (req.url === '/.well-known/jwks.json') {
        json(200, { keys: keys.filter((k) => k.published).map((k) => k.jwk) })
      } else if (req.url === '/.well-known/openid-configuration') {
        if (provider.discoveryStatus !== 200) return json(provider.discoveryStatus, { error: 'unavailable' })
        json(200, {
          issuer,
          jwks_uri: `${base}/.well-known/jwks.json`,
          token_endpoint: `${base}/token`,
          authorization_endpoint: `${base}/authorize`,
          id_token_signing_alg_values_supported: ['RS256', 'ES256']
        })
      } else if (req.url === '/token' && req.method === 'POST') {
        const reply = await tokenEndpoint(new URLSearchParams(body))
        json(reply.status, reply.body)
      } else {
        res.writeHead(404).end()
      }
    })().catch(() => res.writeHead(500).end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  issuer = `${base}/`
  provider.issuer = issuer
  provider.jwksUrl = `${base}/.well-known/jwks.json`
  return provider
}
