import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTrips } from '../../helpers/trips.js'

test('a user creates a tour and reads it back', async () => {
  const t = await startTrips()
  const user = await t.call('ann@example.com', 'POST', '/user', { user_name: 'ann', email_address: 'ann@example.com' })
  assert.equal(user.status, 200)
  const tour = await t.call('ann@example.com', 'POST', `/user/${user.json.data.id}/tour`, { date: '2021-06-30', location: 'Alps' })
  assert.equal(tour.status, 200)
  const read = await t.call('ann@example.com', 'GET', `/tour/${tour.json.data.id}`)
  assert.deepEqual(read.json.data.attributes, { date: '2021-06-30', location: 'Alps', creator_id: Number(user.json.data.id), complete: 'false' })
})
