import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { SignJWT, base64url } from 'jose'
import { startTestIdentityProvider } from '../../../helpers/idp.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const idp = await startTestIdentityProvider('quartet-api')
after(() => idp.close())
const apiOidc = { issuer: idp.issuer, audience: idp.audience, jwks_cooldown_seconds: 0 }
const orch = await startOrchestrator({ config: { api_oidc: apiOidc, api: { control_mutations: true } } })

const as = (token: string, method = 'GET', url = '/api/auth/me', body?: unknown) =>
  orch.call(method, url, body, { authorization: `Bearer ${token}` })

test('the API token is the project owner; an OIDC token is its verified subject, tenant and role', async () => {
  const owner = await orch.call('GET', '/api/auth/me')
  assert.equal(owner.status, 200, owner.body)
  assert.deepEqual(
    { mode: owner.json.mode, subject: owner.json.subject, role: owner.json.role, tenant: owner.json.tenant },
    { mode: 'static', subject: 'api-static', role: 'admin', tenant: 'local' }
  )
  const token = await idp.mint({ sub: 'u-1', email: 'ada@example.com', name: 'Ada', role: 'operator', tenant: 'acme' })
  const me = await as(token)
  assert.equal(me.status, 200, me.body)
  assert.equal(me.json.mode, 'oidc')
  assert.equal(me.json.subject, 'u-1')
  assert.equal(me.json.email, 'ada@example.com')
  assert.equal(me.json.tenant, 'acme')
  assert.equal(me.json.tenantClaimed, true)
  assert.equal(me.json.role, 'operator')
})

test('a token without a role claim is a viewer; a roles array is read', async () => {
  const viewer = await as(await idp.mint({ sub: 'u-2' }))
  assert.equal(viewer.json.role, 'viewer')
  const many = await as(await idp.mint({ sub: 'u-3', roles: ['offline_access', 'admin'] }))
  assert.equal(many.json.role, 'admin')
  assert.deepEqual(many.json.roles, ['offline_access', 'admin'])
})

test('refused tokens: alg none, unknown kid, rogue key, wrong issuer, wrong audience, expired, garbage', async () => {
  const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))
  const payload = base64url.encode(JSON.stringify({ sub: 'evil', role: 'admin', iss: idp.issuer, aud: idp.audience, exp: 9999999999 }))
  const cases: Record<string, string> = {
    'alg none': `${header}.${payload}.`,
    'unknown kid': await idp.mint({ sub: 'x', role: 'admin' }, { kid: 'not-published' }),
    'rogue key': await idp.mint({ sub: 'x', role: 'admin' }, { key: 'rogue' }),
    'wrong issuer': await idp.mint({ sub: 'x', role: 'admin' }, { issuer: 'https://evil.example/' }),
    'wrong audience': await idp.mint({ sub: 'x', role: 'admin' }, { audience: 'someone-else' }),
    expired: await idp.mint({ sub: 'x', role: 'admin' }, { expiresIn: -3600 }),
    'HS256 with the public key as secret': await new SignJWT({ sub: 'x', role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a'.repeat(32))),
    garbage: 'a.b.c'
  }
  for (const [name, token] of Object.entries(cases)) {
    const response = await as(token, 'GET', '/api/status')
    assert.equal(response.status, 403, `${name}: ${response.body}`)
    assert.deepEqual(response.json, { error: 'forbidden' }, name)
  }
})

test('JWKS rotation is picked up without a restart; an ES256 key works too', async () => {
  const before = await as(await idp.mint({ sub: 'r-1' }))
  assert.equal(before.status, 200)
  await idp.rotate({ retireOld: true })
  const rotated = await as(await idp.mint({ sub: 'r-2' }))
  assert.equal(rotated.status, 200, rotated.body)
  assert.equal(rotated.json.subject, 'r-2')
  await idp.rotate({ alg: 'ES256' })
  const es = await as(await idp.mint({ sub: 'r-3' }, { alg: 'ES256' }))
  assert.equal(es.status, 200, es.body)
})

test('roles are enforced: a viewer reads but may not write or control; an operator controls', async () => {
  const viewer = await idp.mint({ sub: 'v', role: 'viewer' })
  assert.equal((await as(viewer, 'GET', '/api/status')).status, 200)
  const refused = await as(viewer, 'POST', '/api/kill/all', {})
  assert.equal(refused.status, 403)
  assert.match(refused.json.error as string, /execute permission/)
  const operator = await idp.mint({ sub: 'o', role: 'operator' })
  assert.equal((await as(operator, 'POST', '/api/kill/all', {})).status, 200)
})

test('strict_tenant_isolation refuses a tenant-less OIDC caller except on /api/auth/me', async () => {
  const strict = await startOrchestrator({ config: { api_oidc: apiOidc, strict_tenant_isolation: true } })
  const call = (token: string, url: string) => strict.call('GET', url, undefined, { authorization: `Bearer ${token}` })
  const tenantless = await idp.mint({ sub: 't-0', role: 'admin' })
  const refused = await call(tenantless, '/api/status')
  assert.equal(refused.status, 403)
  assert.match(refused.json.error as string, /strict_tenant_isolation/)
  assert.equal((await call(tenantless, '/api/auth/me')).status, 200)
  assert.equal((await call(await idp.mint({ sub: 't-1', tenant: 'acme' }), '/api/status')).status, 200)
  assert.equal((await strict.call('GET', '/api/status')).status, 200, 'the API token owner is the local project')
})

test('HS256 shared-key mode (development) verifies with the key and refuses other algorithms', async () => {
  const key = 'k'.repeat(40)
  const dev = await startOrchestrator({ config: { api_oidc: { issuer: 'https://dev.local/', algorithm: 'HS256', key } } })
  const hs = await new SignJWT({ sub: 'dev', role: 'admin' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('https://dev.local/')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key))
  const me = await dev.call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${hs}` })
  assert.equal(me.status, 200, me.body)
  assert.equal(me.json.role, 'admin')
  const wrongKey = await new SignJWT({ sub: 'dev', role: 'admin' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('https://dev.local/')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('x'.repeat(40)))
  assert.equal((await dev.call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${wrongKey}` })).status, 403)
  const rs = await idp.mint({ sub: 'dev', role: 'admin' }, { issuer: 'https://dev.local/' })
  assert.equal((await dev.call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${rs}` })).status, 403)
})

test('a verified bearer is remembered only until it expires, and only under the configuration that verified it', async () => {
  const key = 'm'.repeat(40)
  const dev = await startOrchestrator({
    config: { api_oidc: { issuer: 'https://dev.local/', algorithm: 'HS256', key, clock_tolerance_seconds: 0 } }
  })
  const sign = (exp: number, secret = key) =>
    new SignJWT({ sub: 'dev', role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('https://dev.local/')
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secret))
  const me = async (token: string) => (await dev.call('GET', '/api/auth/me', undefined, { authorization: `Bearer ${token}` })).status

  const exp = Math.floor(Date.now() / 1000) + 2
  const shortLived = await sign(exp)
  assert.equal(await me(shortLived), 200)
  assert.equal(await me(shortLived), 200, 'the remembered token')
  await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 100))
  assert.equal(await me(shortLived), 403, 'remembered past its exp')

  const hourLong = await sign(Math.floor(Date.now() / 1000) + 3600)
  assert.equal(await me(hourLong), 200)
  const configFile = path.join(dev.project.root, '.quartet', 'config.json')
  const current = JSON.parse(fs.readFileSync(configFile, 'utf8')) as { api_oidc: Record<string, unknown> }
  fs.writeFileSync(configFile, JSON.stringify({ ...current, api_oidc: { ...current.api_oidc, key: 'n'.repeat(40) } }))
  assert.equal(await me(hourLong), 403, 'remembered under a key the configuration no longer holds')
  assert.equal(await me(await sign(Math.floor(Date.now() / 1000) + 3600, 'n'.repeat(40))), 200)
})
