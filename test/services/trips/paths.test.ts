import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTrips } from '../../helpers/trips.js'

test("the seed's trailing-slash form POST /api/private/v1/user/ works like /user", async () => {
  const trips = await startTrips()
  const res = await trips.call('ann@example.com', 'POST', '/user/', { user_name: 'ann', email_address: 'ann@example.com' })
  assert.equal(res.status, 200)
  assert.equal((await trips.call('ann@example.com', 'GET', `/user/${res.json.data.id}/tour/`)).status, 200)
})

test('unknown routes and methods answer in the JSON:API error shape', async () => {
  const trips = await startTrips()
  const res = await trips.call('ann@example.com', 'GET', '/nothing-here')
  assert.equal(res.status, 404)
  assert.equal(res.json.errors[0].code, 'ROUTE_NOT_FOUND')
  const outside = await trips.app.inject({ method: 'GET', url: '/nope' })
  assert.equal(outside.statusCode, 404)
  assert.equal(outside.json().errors[0].code, 'ROUTE_NOT_FOUND')
  const wrongMethod = await trips.call('ann@example.com', 'PUT', '/tour')
  assert.equal(wrongMethod.status, 405)
  assert.equal(wrongMethod.json.errors[0].code, 'METHOD_NOT_ALLOWED')
  assert.equal(wrongMethod.headers.allow, 'GET, HEAD, POST')
  const tooBig = await trips.call('ann@example.com', 'POST', '/user', { user_name: 'x'.repeat(1024 * 1024 + 1), email_address: 'a@b.c' })
  assert.equal(tooBig.status, 413)
  assert.equal(tooBig.json.errors[0].code, 'PAYLOAD_TOO_LARGE')
  const badJson = await trips.app.inject({
    method: 'POST',
    url: '/api/private/v1/user',
    headers: { authorization: `Bearer ${await trips.token('ann@example.com')}`, 'content-type': 'application/json' },
    payload: '{"user_name":'
  })
  assert.equal(badJson.statusCode, 400)
  assert.equal(badJson.json().errors[0].code, 'MALFORMED_BODY')
})
