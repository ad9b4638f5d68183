import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { startTrips, type TripsHarness } from '../../helpers/trips.js'

async function createUser(trips: TripsHarness, email: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await trips.call(email, 'POST', '/user', { user_name: email.split('@')[0], email_address: email, ...extra })
  assert.equal(res.status, 200, res.body)
  return res.json.data.id
}

async function tourOf(trips: TripsHarness, email: string, userId: string, members: string[] = []): Promise<string> {
  const tour = await trips.call(email, 'POST', `/user/${userId}/tour`, { date: '2027-02-01', location: 'Bow Summit' })
  assert.equal(tour.status, 200, tour.body)
  for (const member of members) {
    assert.equal((await trips.call(email, 'POST', '/tour_user', { email_address: member, tour_id: Number(tour.json.data.id) })).status, 200)
  }
  return tour.json.data.id
}

const userCount = async (trips: TripsHarness) => (await trips.database.db.selectFrom('trips_users').select('id').execute()).length

test('profiles: readable by their owner and by members of a shared tour, 404 to everyone else', async (t) => {
  const trips = await startTrips()
  const ann = 'ann@example.com'
  const bob = 'bob@example.com'
  const eve = 'eve@example.com'
  const annId = await createUser(trips, ann, { emergency_contact_name: 'Mum', emergency_number: '555-0100' })
  const bobId = await createUser(trips, bob)
  const eveId = await createUser(trips, eve)

  await t.test('a stranger reads neither by id nor by e-mail, and gets the answer of an unknown user', async () => {
    for (const segment of [annId, ann, 'ANN@example.com', bobId, bob]) {
      const res = await trips.call(eve, 'GET', `/user/${encodeURIComponent(segment)}`)
      assert.equal(res.status, 404, segment)
      assert.equal(res.json.errors[0].code, 'TRIPS_USER_NOT_FOUND')
      assert.doesNotMatch(res.body, /Mum|555-0100/)
    }
    const unknown = await trips.call(eve, 'GET', '/user/999999')
    assert.deepEqual(
      unknown.json.errors.map((e: any) => e.code),
      ['TRIPS_USER_NOT_FOUND']
    )
    assert.equal(unknown.status, 404)
  })

  await t.test('everyone reads their own profile, by id or e-mail in any case', async () => {
    for (const segment of [annId, ann, 'Ann@EXAMPLE.com']) {
      const res = await trips.call(ann, 'GET', `/user/${encodeURIComponent(segment)}`)
      assert.equal(res.status, 200)
      assert.equal(res.json.data.attributes.emergency_contact_name, 'Mum')
    }
  })

  await t.test('members of a common tour read each other; leaving it (deleting the tour) hides them again', async () => {
    const tourId = await tourOf(trips, ann, annId, [bob])
    assert.equal((await trips.call(bob, 'GET', `/user/${annId}`)).json.data.attributes.emergency_number, '555-0100')
    assert.equal((await trips.call(ann, 'GET', `/user/${bob}`)).json.data.id, bobId)
    assert.equal((await trips.call(eve, 'GET', `/user/${annId}`)).status, 404)
    assert.equal((await trips.call(ann, 'DELETE', `/tour/${tourId}`)).status, 204)
    assert.equal((await trips.call(bob, 'GET', `/user/${annId}`)).status, 404)
  })

  await t.test('fuzz: whoever asks for whom by any spelling, a profile shows exactly when self or co-member', async () => {
    const people = [ann, bob, eve]
    const ids = [annId, bobId, eveId]
    // bob and eve share a tour; ann shares none with them now.
    await tourOf(trips, bob, bobId, [eve])
    const shares = (a: number, b: number) => a === b || (a !== 0 && b !== 0)
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('id', 'email', 'upper'),
        async (asker, target, spelling) => {
          const segment = spelling === 'id' ? ids[target]! : spelling === 'email' ? people[target]! : people[target]!.toUpperCase()
          const res = await trips.call(people[asker]!, 'GET', `/user/${encodeURIComponent(segment)}`)
          assert.equal(res.status, shares(asker, target) ? 200 : 404, `${people[asker]} → ${segment}`)
          if (res.status === 200) assert.equal(res.json.data.id, ids[target])
        }
      ),
      { numRuns: 40 }
    )
  })
})

test("POST /user only for the token's own e-mail; updates cannot move a user to another address", async (t) => {
  const trips = await startTrips()

  await t.test("another e-mail is refused with 403 and nothing is written — also the victim's later sign-up works", async () => {
    const before = await userCount(trips)
    for (const body of [
      { user_name: 'x', email_address: 'victim@example.com' },
      { user_name: 'x', email_address: 'mallory@example.com.evil' },
      { user_name: 'x', email_address: 'mallory@example.co' }
    ]) {
      const res = await trips.call('mallory@example.com', 'POST', '/user', body)
      assert.equal(res.status, 403, body.email_address)
      assert.equal(res.json.errors[0].code, 'TRIPS_EMAIL_NOT_YOURS')
      assert.equal(res.json.errors[0].source.pointer, '/email_address')
    }
    // Query-string parameters are the same input.
    assert.equal((await trips.call('mallory@example.com', 'POST', '/user?user_name=x&email_address=victim@example.com')).status, 403)
    assert.equal(await userCount(trips), before)
    await createUser(trips, 'victim@example.com')
  })

  await t.test("fuzz: POST /user succeeds exactly when the address is the token's (case aside)", async () => {
    const local = fc.stringMatching(/^[a-z0-9]{1,8}$/)
    await fc.assert(
      fc.asyncProperty(local, local, fc.boolean(), async (me, other, upper) => {
        const mine = `${me}@fuzz.example`
        const sent = me === other ? (upper ? mine.toUpperCase() : mine) : `${other}@fuzz.example`
        const before = await userCount(trips)
        const res = await trips.call(mine, 'POST', '/user', { user_name: me, email_address: sent })
        if (me !== other) {
          assert.equal(res.status, 403)
          assert.equal(await userCount(trips), before)
        } else {
          assert.ok(res.status === 200 || (res.status === 422 && res.json.errors[0].code === 'TRIPS_EMAIL_TAKEN'), res.body)
        }
      }),
      { numRuns: 40 }
    )
  })

  await t.test('PATCH may change the case of your address, not the address', async () => {
    const id = await createUser(trips, 'kim@example.com')
    const moved = await trips.call('kim@example.com', 'PATCH', `/user/${id}`, { email_address: 'someone@example.com' })
    assert.equal(moved.status, 403)
    assert.equal(moved.json.errors[0].code, 'TRIPS_EMAIL_NOT_YOURS')
    assert.equal((await trips.call('kim@example.com', 'GET', `/user/${id}`)).json.data.attributes.email_address, 'kim@example.com')
    assert.equal((await trips.call('kim@example.com', 'PATCH', `/user/${id}`, { email_address: 'Kim@Example.com' })).status, 202)
  })

  await t.test("the original client's login flow: look yourself up (404), create yourself, look up again", async () => {
    const me = 'newcomer@example.com'
    const first = await trips.call(me, 'GET', `/user/${me}`)
    assert.equal(first.status, 404)
    assert.equal(first.json.errors[0].code, 'TRIPS_USER_NOT_FOUND')
    const created = await trips.call(me, 'POST', '/user', {
      user_name: 'new',
      email_address: me,
      emergency_contact_name: 'nil',
      emergency_number: 'nil'
    })
    assert.equal(created.status, 200)
    assert.equal((await trips.call(me, 'GET', `/user/${me}`)).json.data.id, created.json.data.id)
  })
})

test('a valid token without a user gets 403 TRIPS_CALLER_UNKNOWN on every route but creating and finding itself', async () => {
  const trips = await startTrips()
  const ann = 'ann@example.com'
  const annId = await createUser(trips, ann)
  const tourId = await tourOf(trips, ann, annId)
  const planId = (await trips.call(ann, 'POST', `/user/${annId}/tour/${tourId}/plan`, {})).json.data.id
  const ghost = 'ghost@example.com'
  const calls: [string, string, unknown?][] = [
    ['GET', `/user/${annId}/tour`],
    ['GET', `/tour?user_id=${annId}`],
    ['GET', `/tour/${tourId}`],
    ['GET', '/tour/999999'],
    ['PATCH', `/tour/${tourId}`, { location: 'x' }],
    ['DELETE', `/tour/${tourId}`],
    ['POST', `/user/${annId}/tour`, { date: '2027-01-01', location: 'x' }],
    ['POST', '/tour', { date: '2027-01-01', location: 'x', creator_id: Number(annId) }],
    // No such creator: the caller is still refused first, so an unknown caller learns nothing of the ids.
    ['POST', '/user/999999/tour', { date: '2027-01-01', location: 'x' }],
    ['POST', '/tour', { date: '2027-01-01', location: 'x', creator_id: 999999 }],
    ['POST', `/user/${annId}/tour/${tourId}/plan`, {}],
    ['GET', `/user/${annId}/tour/${tourId}/plan`],
    ['GET', `/plan/${planId}`],
    ['GET', '/plan/999999'],
    ['PATCH', `/plan/${planId}`, { hazard_weather: 'x' }],
    ['DELETE', `/plan/${planId}`],
    ['POST', '/tour_user', { email_address: ghost, tour_id: Number(tourId) }],
    ['GET', `/tour_user?tour_id=${tourId}`],
    ['GET', `/tour_user?user_id=${annId}`],
    ['PATCH', `/user/${annId}`, { user_name: 'x' }],
    ['DELETE', `/user/${annId}`],
    ['DELETE', '/user/999999']
  ]
  for (const [method, path, body] of calls) {
    const res = await trips.call(ghost, method, path, body)
    assert.equal(res.status, 403, `${method} ${path}: ${res.body}`)
    assert.equal(res.json.errors[0].code, 'TRIPS_CALLER_UNKNOWN', `${method} ${path}`)
    assert.match(res.json.errors[0].detail, /POST \/user/)
  }
  // Nothing changed for ann.
  assert.equal((await trips.call(ann, 'GET', `/tour/${tourId}`)).json.data.attributes.location, 'Bow Summit')
  assert.equal((await trips.call(ann, 'GET', `/plan/${planId}`)).status, 200)
})

test('TRIPS_AUTHZ=open keeps the original: any profile readable, any e-mail creatable', async () => {
  const trips = await startTrips({ TRIPS_AUTHZ: 'open' })
  const annId = await createUser(trips, 'ann@example.com', { emergency_contact_name: 'Mum' })
  assert.equal((await trips.call('eve@example.com', 'GET', `/user/${annId}`)).json.data.attributes.emergency_contact_name, 'Mum')
  assert.equal((await trips.call('eve@example.com', 'POST', '/user', { user_name: 'b', email_address: 'bob@example.com' })).status, 200)
})
