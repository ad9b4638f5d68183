import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTrips } from '../../helpers/trips.js'

test('TRIPS_COMPAT=original renders what the original React client expects', async () => {
  const trips = await startTrips({ TRIPS_COMPAT: 'original' })
  const ann = 'ann@example.com'
  const created = await trips.call(ann, 'POST', '/user', {
    user_name: 'ann',
    email_address: ann,
    emergency_contact_name: 'nil',
    emergency_number: 'nil'
  })
  const lookup = await trips.call(ann, 'GET', `/user/${ann}`)
  assert.ok(Array.isArray(lookup.json.data), 'user lookup is an array')
  assert.equal(lookup.json.data[0].id, created.json.data.id)
  const tour = await trips.call(ann, 'POST', `/user/${created.json.data.id}/tour`, {
    creator_id: Number(created.json.data.id),
    location: 'Alps',
    date: '2021-06-30T00:00:00.000Z'
  })
  assert.deepEqual(tour.json.data.attributes, {
    date: '2021-06-30T00:00:00.000Z',
    location: 'Alps',
    creator_id: Number(created.json.data.id),
    complete: false
  })
  const completed = await trips.call(ann, 'PUT', `/tour/${tour.json.data.id}`, { complete: true })
  assert.equal(completed.json.data.attributes.complete, true)
  const plan = await trips.call(ann, 'POST', `/user/${created.json.data.id}/tour/${tour.json.data.id}/plan`, {})
  assert.equal(plan.json.data.attributes.checklist, false)
  assert.equal(plan.json.data.attributes.route_alternative, 'nil')
})

test('TRIPS_COMPAT=seed (default) renders the seed shapes', async () => {
  const trips = await startTrips()
  const ann = 'ann@example.com'
  const created = await trips.call(ann, 'POST', '/user', { user_name: 'ann', email_address: ann })
  const lookup = await trips.call(ann, 'GET', `/user/${ann}`)
  assert.equal(lookup.json.data.id, created.json.data.id)
  const tour = await trips.call(ann, 'POST', `/user/${created.json.data.id}/tour`, { location: 'Alps', date: '2021-06-30' })
  assert.equal(tour.json.data.attributes.complete, 'false')
  assert.equal(tour.json.data.attributes.date, '2021-06-30')
})

test('TRIPS_AUTHZ=open lets any authenticated caller read and change any tour', async () => {
  const trips = await startTrips({ TRIPS_AUTHZ: 'open' })
  const annId = (await trips.call('ann@example.com', 'POST', '/user', { user_name: 'ann', email_address: 'ann@example.com' })).json.data.id
  const tour = await trips.call('ann@example.com', 'POST', `/user/${annId}/tour`, { location: 'Alps', date: '2021-06-30' })
  const stranger = 'nobody@example.com'
  assert.equal((await trips.call(stranger, 'GET', `/tour/${tour.json.data.id}`)).status, 200)
  assert.equal((await trips.call(stranger, 'PATCH', `/tour/${tour.json.data.id}`, { location: 'Andes' })).status, 202)
  assert.equal((await trips.call(stranger, 'PATCH', `/user/${annId}`, { user_name: 'changed' })).status, 202)
  assert.equal((await trips.call(stranger, 'DELETE', `/tour/${tour.json.data.id}`)).status, 204)
})
