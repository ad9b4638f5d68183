import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const KEY = 'enterprise-test-shared-key-0123456789'
const ISSUER = 'https://dev.local/'
const orch = await startOrchestrator({
  config: { api_oidc: { issuer: ISSUER, algorithm: 'HS256', key: KEY }, api: { control_mutations: true } }
})

async function tokenFor(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(KEY))
}
const bearer = async (claims: Record<string, unknown>) => ({ authorization: `Bearer ${await tokenFor(claims)}` })

test('reads are empty 200 arrays on a fresh project; unknown sub-paths 404', async () => {
  const fresh = await startOrchestrator()
  for (const resource of ['tenants', 'rate', 'missions-audit']) {
    const answered = await fresh.call('GET', `/api/enterprise/${resource}`)
    assert.equal(answered.status, 200, resource)
    assert.deepEqual(answered.json, [], resource)
  }
  const rbac = await fresh.call('GET', '/api/enterprise/rbac')
  assert.deepEqual(
    rbac.json.map((r: { role: string }) => r.role),
    ['viewer', 'operator', 'admin']
  )
  assert.ok(Array.isArray((await fresh.call('GET', '/api/enterprise/audit')).json))
  assert.equal((await fresh.call('GET', '/api/enterprise/nope')).status, 404)
  assert.equal((await fresh.app.inject({ url: '/api/enterprise/tenants' })).statusCode, 401)
})

test('tenant writes: 201, duplicate 409, strict 400 with nothing written, partial PUT, unknown 404, DELETE {ok,id}', async () => {
  const created = await orch.call('POST', '/api/enterprise/tenants', { id: 'acme', name: 'Acme' })
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.status, 'active')
  assert.equal(created.json.users, 0)
  assert.equal((await orch.call('POST', '/api/enterprise/tenants', { id: 'acme', name: 'Again' })).status, 409)
  for (const bad of [{ id: 'BAD ID', name: 'x' }, { id: 'ok' }, { id: 'ok2', name: 'x', extra: 1 }, { id: 'ok3', name: 'x', users: -1 }]) {
    assert.equal((await orch.call('POST', '/api/enterprise/tenants', bad)).status, 400, JSON.stringify(bad))
  }
  const tenants = (await orch.call('GET', '/api/enterprise/tenants')).json as { id: string }[]
  assert.deepEqual(
    tenants.map((t) => t.id),
    ['acme']
  )
  const updated = await orch.call('PUT', '/api/enterprise/tenants/acme', { users: 3 })
  assert.deepEqual([updated.status, updated.json.name, updated.json.users], [200, 'Acme', 3])
  assert.equal((await orch.call('PUT', '/api/enterprise/tenants/ghost', { users: 1 })).status, 404)
  assert.equal((await orch.call('DELETE', '/api/enterprise/tenants/ghost')).status, 404)
  assert.deepEqual((await orch.call('DELETE', '/api/enterprise/tenants/acme')).json, { ok: true, id: 'acme' })
})

test('RBAC matrix: every role against every enterprise write and a control route', async () => {
  const writes: [string, string, unknown][] = [
    ['POST', '/api/enterprise/tenants', { id: 'm-tenant', name: 'M' }],
    ['PUT', '/api/enterprise/tenants/m-tenant', { name: 'M2' }],
    ['DELETE', '/api/enterprise/tenants/m-tenant', undefined],
    ['POST', '/api/enterprise/rbac', { role: 'm-role', permissions: ['read'] }],
    ['PUT', '/api/enterprise/rbac/m-role', { permissions: ['read', 'write'] }],
    ['DELETE', '/api/enterprise/rbac/m-role', undefined],
    ['POST', '/api/enterprise/rate', { id: 'm-rate', endpoint: '/api/nothing', limit: 5 }],
    ['PUT', '/api/enterprise/rate/m-rate', { limit: 6 }],
    ['DELETE', '/api/enterprise/rate/m-rate', undefined]
  ]
  const expected: Record<string, { write: number; control: number }> = {
    viewer: { write: 403, control: 403 },
    operator: { write: 403, control: 200 },
    admin: { write: 0, control: 200 }
  }
  for (const [role, want] of Object.entries(expected)) {
    const headers = await bearer({ sub: `${role}-1`, role })
    for (const [method, url, body] of writes) {
      const answered = await orch.call(method, url, body, headers)
      if (want.write === 0) assert.ok(answered.status === 200 || answered.status === 201, `${role} ${method} ${url}: ${answered.body}`)
      else assert.equal(answered.status, want.write, `${role} ${method} ${url}`)
    }
    assert.equal((await orch.call('POST', '/api/kill/all', {}, headers)).status, want.control, `${role} kill/all`)
    assert.equal((await orch.call('GET', '/api/enterprise/audit', undefined, headers)).status, 200, `${role} reads audit`)
  }
  // The API token's owner is admin.
  assert.equal((await orch.call('POST', '/api/enterprise/tenants', { id: 'owner-made', name: 'O' })).status, 201)
})

test('a custom role is enforced on the next request, and changing it changes access', async () => {
  const auditor = await bearer({ sub: 'aud-1', role: 'auditor' })
  assert.equal((await orch.call('GET', '/api/status', undefined, auditor)).status, 403, 'an unknown role has no permission')
  assert.equal((await orch.call('POST', '/api/enterprise/rbac', { role: 'auditor', permissions: ['read'] })).status, 201)
  assert.equal((await orch.call('GET', '/api/status', undefined, auditor)).status, 200)
  assert.equal((await orch.call('POST', '/api/enterprise/tenants', { id: 'by-auditor', name: 'x' }, auditor)).status, 403)
  assert.equal((await orch.call('PUT', '/api/enterprise/rbac/auditor', { permissions: ['read', 'admin'] })).status, 200)
  assert.equal((await orch.call('POST', '/api/enterprise/tenants', { id: 'by-auditor', name: 'x' }, auditor)).status, 201)
  assert.deepEqual((await orch.call('DELETE', '/api/enterprise/rbac/auditor')).json, { ok: true, id: 'auditor', role: 'auditor' })
  assert.equal((await orch.call('GET', '/api/status', undefined, auditor)).status, 403)
  // A custom role named like a built-in replaces it: viewers lose read.
  assert.equal((await orch.call('PUT', '/api/enterprise/rbac/viewer', { permissions: [] })).status, 200)
  assert.equal((await orch.call('GET', '/api/status', undefined, await bearer({ sub: 'v', role: 'viewer' }))).status, 403)
  assert.equal((await orch.call('DELETE', '/api/enterprise/rbac/viewer')).status, 200)
  const rbac = (await orch.call('GET', '/api/enterprise/rbac')).json as { role: string; permissions: string[] }[]
  assert.deepEqual(rbac.find((r) => r.role === 'viewer')?.permissions, ['read', 'sprint:read'])
})

test('a role changed by another server on the same database applies within about a second', async () => {
  const clerk = await bearer({ sub: 'clerk-1', role: 'clerk' })
  assert.equal((await orch.call('GET', '/api/status', undefined, clerk)).status, 403)
  // Another process's write: straight into the database, past this server's service.
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  await orch.repositories.enterprise.insertRole(projectId, { role: 'clerk', permissions: ['read'] })
  const deadline = Date.now() + 3000
  let status = 403
  while (status === 403 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    status = (await orch.call('GET', '/api/status', undefined, clerk)).status
  }
  assert.equal(status, 200, 'the role written elsewhere is in force within 3 s')
  await orch.repositories.enterprise.deleteRole(projectId, 'clerk')
  await new Promise((resolve) => setTimeout(resolve, 1100))
  assert.equal((await orch.call('GET', '/api/status', undefined, clerk)).status, 403, 'and its removal too')
})

test('a rate rule is applied: the third call in a minute is 429; loopback is exempt by policy', async () => {
  assert.equal((await orch.call('POST', '/api/enterprise/rate', { id: 'status-2', endpoint: '/api/status', limit: 2 })).status, 201)
  const from = (remoteAddress: string) =>
    orch.app.inject({ url: '/api/status', remoteAddress, headers: { authorization: `Bearer ${orch.token}` } })
  assert.equal((await from('198.51.100.7')).statusCode, 200)
  assert.equal((await from('198.51.100.7')).statusCode, 200)
  const third = await from('198.51.100.7')
  assert.equal(third.statusCode, 429)
  assert.ok(Number(third.headers['retry-after']) > 0)
  assert.equal((await from('198.51.100.8')).statusCode, 200, 'another client has its own window')
  for (let i = 0; i < 4; i++) assert.equal((await from('127.0.0.1')).statusCode, 200)
  const rate = (await orch.call('GET', '/api/enterprise/rate')).json as { id: string; endpoint: string; remaining: number }[]
  assert.ok(rate.some((r) => r.endpoint === '/api/status [198.51.100.7]' && r.remaining === 0))
  assert.deepEqual((await orch.call('DELETE', '/api/enterprise/rate/status-2')).json, { ok: true, id: 'status-2' })
  assert.equal((await from('198.51.100.7')).statusCode, 200, 'a deleted rule no longer applies')
})

test('the audit log: writes and denials stamped with the verified actor, never a body field', async () => {
  const admin = await bearer({ sub: 'alice', role: 'admin', tenant: 'acme' })
  await orch.call('POST', '/api/enterprise/tenants', { id: 'spoof', name: 'S', actor: 'mallory' }, admin)
  await orch.call('POST', '/api/enterprise/tenants', { id: 'spoof2', name: 'S' }, { ...admin, 'x-actor': 'mallory' })
  await orch.call('POST', '/api/enterprise/tenants', { id: 'viewer-try', name: 'V' }, await bearer({ sub: 'bob', role: 'viewer' }))
  await orch.app.inject({ method: 'POST', url: '/api/enterprise/tenants', payload: { id: 'anon', name: 'A' } })
  const entries = (await orch.call('GET', '/api/enterprise/audit?limit=500')).json as Record<string, any>[]
  const spoof2 = entries.find((e) => e.action === 'enterprise:tenants:create' && e.resource === 'spoof2')
  assert.equal(spoof2?.actor, 'alice')
  assert.equal(spoof2?.tenant, 'acme')
  assert.equal(spoof2?.gate, 'allowed')
  assert.ok(!entries.some((e) => e.actor === 'mallory'))
  const denied = entries.filter((e) => e.action === 'access:denied' && e.resource === 'POST /api/enterprise/tenants')
  assert.ok(denied.some((e) => e.actor === 'bob' && e.result === 'denied' && e.gate === 'refused' && e.status === 403))
  assert.ok(denied.some((e) => e.actor === 'anonymous' && e.status === 401))
  assert.ok(
    entries.some((e) => e.action === 'enterprise:tenants:read'),
    'a sensitive read is audited'
  )
  assert.ok(
    entries.some((e) => e.action === 'POST /api/kill/all'),
    'every mutating route is audited'
  )
  // A non-admin OIDC caller sees its own tenant's records only.
  const mine = (
    await orch.call('GET', '/api/enterprise/audit?limit=500', undefined, await bearer({ sub: 'op', role: 'operator', tenant: 'acme' }))
  ).json as Record<string, any>[]
  assert.ok(mine.length > 0 && mine.every((e) => e.tenant === 'acme'))
})

test('audit verify detects an edited, a deleted and a reordered record (route and first broken seq)', async () => {
  const verify = async () =>
    (await orch.call('GET', '/api/enterprise/audit/verify')).json as { ok: boolean; records: number; firstBroken: any }
  const clean = await verify()
  assert.equal(clean.ok, true, JSON.stringify(clean))
  assert.ok(clean.records > 10)
  const db = orch.database.db
  const table = sql.table('orch_audit_log')
  const row = async (seq: number) =>
    (
      await sql<{ actor: string; hmac: string; prev_hmac: string }>`select actor, hmac, prev_hmac from ${table} where seq = ${seq}`.execute(
        db
      )
    ).rows[0]!

  const original = await row(5)
  await sql`update ${table} set actor = ${'someone-else'} where seq = ${5}`.execute(db)
  assert.deepEqual((await verify()).firstBroken, { seq: 5, reason: 'tampered' })
  await sql`update ${table} set actor = ${original.actor} where seq = ${5}`.execute(db)
  assert.equal((await verify()).ok, true)

  // Reorder: swap the contents of two records (their seq stays).
  const a = await row(7)
  const b = await row(8)
  await sql`update ${table} set hmac = ${b.hmac}, prev_hmac = ${b.prev_hmac} where seq = ${7}`.execute(db)
  await sql`update ${table} set hmac = ${a.hmac}, prev_hmac = ${a.prev_hmac} where seq = ${8}`.execute(db)
  assert.deepEqual((await verify()).firstBroken, { seq: 7, reason: 'reordered' })
  await sql`update ${table} set hmac = ${a.hmac}, prev_hmac = ${a.prev_hmac} where seq = ${7}`.execute(db)
  await sql`update ${table} set hmac = ${b.hmac}, prev_hmac = ${b.prev_hmac} where seq = ${8}`.execute(db)
  assert.equal((await verify()).ok, true)

  await sql`delete from ${table} where seq = ${9}`.execute(db)
  const afterDelete = await verify()
  assert.equal(afterDelete.ok, false)
  assert.deepEqual(afterDelete.firstBroken, { seq: 9, reason: 'missing' })
  assert.equal(afterDelete.records, 8)
})
