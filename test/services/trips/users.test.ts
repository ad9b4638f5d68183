import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTrips, type TripsHarness } from '../../helpers/trips.js'
import { TRIPS_PREFIX } from '../../../src/services/trips/app.js'

/** Creates a user (calling as them) and returns its resource. */
async function createUser(trips: TripsHarness, userName: string, email: string) {
  const res = await trips.call(email, 'POST', '/user', { user_name: userName, email_address: email })
  assert.equal(res.status, 200, res.body)
  return res.json.data
}

test('users: create, look up, update and delete', async (t) => {
  const trips = await startTrips()
  const ann = 'ann@example.com'

  await t.test('POST /user creates a user with 200 and the exact envelope; absent emergency details are "nil"', async () => {
    const res = await trips.call(ann, 'POST', '/user', { user_name: 'Ann', email_address: 'Ann@Example.com' })
    assert.equal(res.status, 200)
    assert.deepEqual(Object.keys(res.json.data).sort(), ['attributes', 'id', 'type'])
    assert.equal(res.json.data.type, 'user')
    assert.match(res.json.data.id, /^\d+$/)
    assert.deepEqual(res.json.data.attributes, {
      user_name: 'Ann',
      email_address: 'Ann@Example.com',
      emergency_contact_name: 'nil',
      emergency_number: 'nil'
    })
  })

  await t.test('parameters are read from the query string and from form bodies too', async () => {
    const query = await trips.call('q@example.com', 'POST', '/user?user_name=Q&email_address=q@example.com&emergency_number=234')
    assert.equal(query.status, 200)
    assert.equal(query.json.data.attributes.emergency_number, '234')
    const form = await trips.app.inject({
      method: 'POST',
      url: `${TRIPS_PREFIX}/user`,
      headers: { authorization: `Bearer ${await trips.token('f@example.com')}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'user_name=F&email_address=f%40example.com&emergency_contact_name=Mum'
    })
    assert.equal(form.statusCode, 200)
    assert.equal(form.json().data.attributes.emergency_contact_name, 'Mum')
  })

  await t.test('invalid input is 422 with one JSON:API error per problem and nothing is written', async () => {
    const res = await trips.call(ann, 'POST', '/user', { user_name: '', email_address: 'not-an-email' })
    assert.equal(res.status, 422)
    const pointers = res.json.errors.map((e: any) => e.source.pointer).sort()
    assert.deepEqual(pointers, ['/email_address', '/user_name'])
    for (const error of res.json.errors) {
      assert.equal(error.status, '422')
      assert.equal(error.code, 'TRIPS_VALIDATION_FAILED')
      assert.equal(error.title, 'Unprocessable Entity')
    }
    assert.equal(typeof res.json.meta.request_id, 'string')
    const missing = await trips.call(ann, 'POST', '/user', {})
    assert.equal(missing.status, 422)
    assert.deepEqual(missing.json.errors.map((e: any) => e.source.pointer).sort(), ['/email_address', '/user_name'])
    assert.equal((await trips.call(ann, 'GET', '/user/nobody@example.com')).status, 404)
  })

  await t.test('e-mail addresses are unique regardless of case', async () => {
    await createUser(trips, 'Uma', 'uma@example.com')
    const res = await trips.call('uma@example.com', 'POST', '/user', { user_name: 'Uma 2', email_address: 'UMA@example.COM' })
    assert.equal(res.status, 422)
    assert.equal(res.json.errors[0].code, 'TRIPS_EMAIL_TAKEN')
    assert.equal(res.json.errors[0].source.pointer, '/email_address')
  })

  await t.test('GET /user/{email} finds case-insensitively (also dotted addresses), a numeric segment finds by id', async () => {
    const gina = await createUser(trips, 'Gina', 'Gina@Example.com')
    // Profiles are for their owner and tour co-members: ann and gina share a tour.
    const annId = (await trips.call(ann, 'GET', `/user/${ann}`)).json.data.id
    const tour = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date: '2027-01-01', location: 'Ridge' })
    assert.equal(
      (await trips.call(ann, 'POST', '/tour_user', { email_address: 'gina@example.com', tour_id: Number(tour.json.data.id) })).status,
      200
    )
    const found = await trips.call(ann, 'GET', '/user/gina@EXAMPLE.com')
    assert.equal(found.json.data.id, gina.id)
    assert.equal(found.status, 200)
    assert.equal(found.json.data.attributes.user_name, 'Gina')
    const dotted = await trips.call('first.last@mail.co.uk', 'POST', '/user', { user_name: 'FL', email_address: 'first.last@mail.co.uk' })
    assert.equal(
      (await trips.call('first.last@mail.co.uk', 'GET', `/user/${encodeURIComponent('First.Last@mail.co.uk')}`)).json.data.id,
      dotted.json.data.id
    )
    assert.equal((await trips.call(ann, 'GET', `/user/${found.json.data.id}`)).json.data.attributes.email_address, 'Gina@Example.com')
    const missing = await trips.call(ann, 'GET', '/user/ghost@example.com')
    assert.equal(missing.status, 404)
    assert.equal(missing.json.errors[0].code, 'TRIPS_USER_NOT_FOUND')
  })

  await t.test('PATCH and PUT update your own user with 202; another user is 403; unknown is 404', async () => {
    const pat = 'pat@example.com'
    const me = await createUser(trips, 'Pat', pat)
    const patched = await trips.call(pat, 'PATCH', `/user/${me.id}`, { emergency_contact_name: 'Bob' })
    assert.equal(patched.status, 202)
    assert.equal(patched.json.data.attributes.emergency_contact_name, 'Bob')
    assert.equal(patched.json.data.attributes.user_name, 'Pat')
    const put = await trips.call(pat, 'PUT', `/user/${me.id}?emergency_number=911`)
    assert.equal(put.status, 202)
    assert.equal(put.json.data.attributes.emergency_number, '911')
    assert.equal(put.json.data.attributes.emergency_contact_name, 'Bob')
    const other = await trips.call('q@example.com', 'PATCH', `/user/${me.id}`, { user_name: 'hijack' })
    assert.equal(other.status, 403)
    assert.equal(other.json.errors[0].code, 'TRIPS_NOT_OWNER')
    assert.equal((await trips.call(pat, 'GET', `/user/${pat}`)).json.data.attributes.user_name, 'Pat')
    assert.equal((await trips.call(pat, 'PATCH', '/user/999999', { user_name: 'x' })).status, 404)
    assert.equal((await trips.call(pat, 'PATCH', `/user/${me.id}`, { user_name: '' })).status, 422)
    assert.equal((await trips.call(pat, 'PATCH', '/user/abc', { user_name: 'x' })).status, 404)
  })

  await t.test('DELETE removes your user and their tour links with 204 and an empty body', async () => {
    const dee = 'dee@example.com'
    const bob = await createUser(trips, 'Bob', 'bob@example.com')
    const me = await createUser(trips, 'Dee', dee)
    const tour = (await trips.call(dee, 'POST', `/user/${me.id}/tour`, { date: '2027-01-01', location: 'Ridge' })).json.data
    assert.equal((await trips.call(dee, 'POST', '/tour_user', { email_address: 'bob@example.com', tour_id: Number(tour.id) })).status, 200)
    assert.equal((await trips.call(dee, 'DELETE', `/user/${bob.id}`)).status, 403)
    const deleted = await trips.call('bob@example.com', 'DELETE', `/user/${bob.id}`)
    assert.equal(deleted.status, 204)
    assert.equal(deleted.body, '')
    assert.equal((await trips.call(dee, 'GET', '/user/bob@example.com')).status, 404)
    const members = await trips.call(dee, 'GET', `/tour_user?tour_id=${tour.id}`)
    assert.deepEqual(
      members.json.data.map((u: any) => u.id),
      [me.id]
    )
    assert.equal((await trips.call(dee, 'DELETE', `/user/${bob.id}`)).status, 404)
    // Bob's token no longer has a user: told to create one, not shown what exists.
    const again = await trips.call('bob@example.com', 'DELETE', `/user/${bob.id}`)
    assert.equal(again.status, 403)
    assert.equal(again.json.errors[0].code, 'TRIPS_CALLER_UNKNOWN')
  })
})
