import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isolatedDatabaseEnv, runCli, startCli } from '../helpers/cli.js'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-e2e-trips-'))
after(() => fs.rmSync(dataDir, { recursive: true, force: true }))
// SQLite in its own data dir, or (with DATABASE_URL) a PostgreSQL schema of its own.
const database = await isolatedDatabaseEnv('trips')
after(() => database.cleanup())
const env = { QUARTET_DATA_DIR: dataDir, TRIPS_PORT: '0', DATABASE_URL: database.DATABASE_URL ?? '', REDIS_URL: '' }

test('quartet serve trips + quartet token: the README walk-through works end to end', async () => {
  const server = await startCli(['serve', 'trips'], env)
  after(() => server.stop('SIGKILL'))
  const base = server.urls.trips
  assert.ok(base, server.output())
  assert.equal((server.ready.services as Record<string, { docs?: string }>).trips?.docs, `${base}/docs`)
  assert.ok(
    server.records().some((r) => r.service === 'trips' && String(r.command).endsWith(' token trips --email you@example.com')),
    server.output()
  )
  assert.doesNotMatch(server.output(), /"kty"|"d":/, 'the signing key is never printed')
  const keyFile = path.join(dataDir, 'secrets', 'trips-signing-key.jwk')
  assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600)

  const token = await runCli(['token', 'trips', '--email', 'ann@example.com'], env)
  assert.equal(token.code, 0, token.stderr)
  const auth = { authorization: `Bearer ${token.stdout.trim()}` }
  const api = `${base}/api/private/v1`
  const json = (body: unknown) => ({ method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  const user = (await (await fetch(`${api}/user`, json({ user_name: 'ann', email_address: 'ann@example.com' }))).json()) as any
  // Bob creates his own user (a user can only be created with the token's e-mail).
  const bobToken = await runCli(['token', 'trips', '--email', 'bob@example.com'], env)
  const bobAuth = { authorization: `Bearer ${bobToken.stdout.trim()}` }
  const form = await fetch(`${api}/user`, {
    method: 'POST',
    headers: { ...bobAuth, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'user_name=bob&email_address=bob%40example.com'
  })
  assert.equal(form.status, 200)
  const tour = (await (
    await fetch(`${api}/user/${user.data.id}/tour`, json({ date: '2027-01-15', location: 'Rogers Pass' }))
  ).json()) as any
  const plan = await fetch(`${api}/user/${user.data.id}/tour/${tour.data.id}/plan?hazard_weather=windy`, { method: 'POST', headers: auth })
  assert.equal(plan.status, 200)
  const member = await fetch(`${api}/tour_user?email_address=bob@example.com&tour_id=${tour.data.id}`, { method: 'POST', headers: auth })
  assert.equal(member.status, 200)
  const members = (await (await fetch(`${api}/tour_user?tour_id=${tour.data.id}`, { headers: auth })).json()) as any
  assert.deepEqual(
    members.data.map((u: any) => u.attributes.user_name),
    ['ann', 'bob']
  )
  const plans = (await (await fetch(`${api}/user/${user.data.id}/tour/${tour.data.id}/plan`, { headers: auth })).json()) as any
  assert.equal(plans.data[0].attributes.hazard_weather, 'windy')
  const response = await fetch(`${api}/tour/${tour.data.id}`, { headers: { ...auth, 'x-request-id': 'e2e-trace-1' } })
  assert.equal(response.headers.get('x-request-id'), 'e2e-trace-1')
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
  assert.equal((await fetch(`${base}/health`)).status, 200)

  // Graceful shutdown: SIGTERM drains and exits 0; the data survives a restart.
  assert.equal(await server.stop('SIGTERM'), 0)
  assert.match(server.output(), /Stopped\./)
  const again = await startCli(['serve', 'trips'], env)
  after(() => again.stop('SIGKILL'))
  const reread = await fetch(`${again.urls.trips}/api/private/v1/tour/${tour.data.id}`, { headers: auth })
  assert.equal(reread.status, 200, 'the token and the data survive a restart')
  assert.equal(await again.stop('SIGINT'), 0)
})

test('the CLI explains its errors and exits non-zero', async () => {
  const unknown = await runCli(['serve', 'trips', 'spaceship'], env)
  assert.equal(unknown.code, 2)
  assert.match(unknown.stderr, /Unknown service: spaceship\. Known services: orchestrator, trips, feed, marketplace/)
  const badConfig = await runCli(['serve', 'trips'], { ...env, TRIPS_PORT: 'abc', TRIPS_AUTHZ: 'nobody' })
  assert.equal(badConfig.code, 2)
  assert.match(badConfig.stderr, /TRIPS_PORT/)
  assert.match(badConfig.stderr, /TRIPS_AUTHZ: must be one of owner, open/)
  const badEmail = await runCli(['token', 'trips', '--email', 'nope'], env)
  assert.equal(badEmail.code, 2)
  assert.match(badEmail.stderr, /--email must be an e-mail address/)
  const otherService = await runCli(['token', 'marketplace', '--email', 'a@b.c'], env)
  assert.equal(otherService.code, 2)
  assert.match(otherService.stderr, /only trips and feed have a token command.*quartet marketplace keys/)
})

test('PORT applies when exactly one service starts; a taken port is a clear error', async () => {
  const first = await startCli(['serve', 'trips', '--port', '0'], { ...env, TRIPS_PORT: '1' })
  after(() => first.stop('SIGKILL'))
  const port = new URL(first.urls.trips as string).port
  const clash = await runCli(['serve', 'trips'], { ...env, TRIPS_PORT: port })
  assert.equal(clash.code, 1)
  assert.match(clash.stderr, new RegExp(`trips: cannot listen on 127\\.0\\.0\\.1:${port}`))
  assert.equal(await first.stop('SIGTERM'), 0)
})
