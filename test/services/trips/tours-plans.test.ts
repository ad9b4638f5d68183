import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTrips, type TripsHarness } from '../../helpers/trips.js'

async function user(trips: TripsHarness, email: string): Promise<string> {
  const res = await trips.call(email, 'POST', '/user', { user_name: email.split('@')[0], email_address: email })
  assert.equal(res.status, 200, res.body)
  return res.json.data.id
}

let crews = 0
/** Fresh users for one subtest — ann creates tours, bob joins them, eve is a stranger — so subtests share no rows. */
async function crew(trips: TripsHarness) {
  const n = ++crews
  const [ann, bob, eve] = [`ann${n}@example.com`, `bob${n}@example.com`, `eve${n}@example.com`]
  const [annId, bobId] = [await user(trips, ann), await user(trips, bob)]
  await user(trips, eve)
  return { ann, bob, eve, annId, bobId }
}

/** Ann's tour (Rogers Pass, 2027-01-15), with bob as a member unless `join` is false. */
async function rogersPass(
  trips: TripsHarness,
  { ann, bob, annId }: { ann: string; bob: string; annId: string },
  join = true
): Promise<string> {
  const tour = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date: '2027-01-15', location: 'Rogers Pass' })
  assert.equal(tour.status, 200, tour.body)
  if (join)
    assert.equal((await trips.call(ann, 'POST', '/tour_user', { email_address: bob, tour_id: Number(tour.json.data.id) })).status, 200)
  return tour.json.data.id
}

test('tours: create, list, read, update, delete with membership rules', async (t) => {
  const trips = await startTrips()

  await t.test('POST /user/{id}/tour creates with 200; date as YYYY-MM-DD, complete as a string, creator_id an integer', async () => {
    const { ann, annId } = await crew(trips)
    const res = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date: '2027-01-15', location: 'Rogers Pass' })
    assert.equal(res.status, 200)
    assert.equal(res.json.data.type, 'tour')
    assert.deepEqual(res.json.data.attributes, {
      date: '2027-01-15',
      location: 'Rogers Pass',
      creator_id: Number(annId),
      complete: 'false'
    })
  })

  await t.test('a timestamp date is stored as its UTC date; impossible dates are 422', async () => {
    const { ann, annId } = await crew(trips)
    const res = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date: '2027-03-01T00:00:00.000Z', location: 'X', complete: 'true' })
    assert.equal(res.json.data.attributes.date, '2027-03-01')
    assert.equal(res.json.data.attributes.complete, 'true')
    const bad = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date: '2027-02-30', location: 'X' })
    assert.equal(bad.status, 422)
    assert.equal(bad.json.errors[0].source.pointer, '/date')
    // An offset may push a timestamp's UTC date out of years 0000-9999: 422, not "+010000-01".
    for (const date of ['9999-12-31T23:59:59-05:00', '0000-01-01T00:00+01:00']) {
      const outOfRange = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date, location: 'X' })
      assert.equal(outOfRange.status, 422, date)
      assert.equal(outOfRange.json.errors[0].source.pointer, '/date')
    }
    const missing = await trips.call(ann, 'POST', `/user/${annId}/tour`, {})
    assert.deepEqual(missing.json.errors.map((e: any) => e.source.pointer).sort(), ['/date', '/location'])
    // Without an offset a timestamp is UTC, whatever the server's time zone (Node reads TZ when it changes).
    const zone = process.env.TZ
    process.env.TZ = 'America/New_York'
    try {
      for (const date of ['2027-01-01T23:30', '2027-01-01 23:30:00.5']) {
        const local = await trips.call(ann, 'POST', `/user/${annId}/tour`, { date, location: 'X' })
        assert.equal(local.json.data.attributes.date, '2027-01-01', date)
      }
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  await t.test('POST /tour needs creator_id; you can only create tours as yourself', async () => {
    const { bob, annId, bobId } = await crew(trips)
    const top = await trips.call(bob, 'POST', '/tour', { date: '2027-05-05', location: 'Bugaboos', creator_id: Number(bobId) })
    assert.equal(top.status, 200)
    assert.equal(top.json.data.attributes.creator_id, Number(bobId))
    const asOther = await trips.call(bob, 'POST', `/user/${annId}/tour`, { date: '2027-05-05', location: 'X' })
    assert.equal(asOther.status, 403)
    assert.equal(asOther.json.errors[0].code, 'TRIPS_CREATOR_MISMATCH')
    assert.equal((await trips.call(bob, 'POST', '/tour', { date: '2027-05-05', location: 'X' })).status, 422)
    assert.equal((await trips.call(bob, 'POST', '/tour', { date: '2027-05-05', location: 'X', creator_id: 99999 })).status, 404)
  })

  await t.test('non-members get 404 for the tour; members read it by both paths', async () => {
    const people = await crew(trips)
    const { ann, eve, annId } = people
    const tourId = await rogersPass(trips, people, false)
    assert.equal((await trips.call(eve, 'GET', `/tour/${tourId}`)).status, 404)
    assert.equal((await trips.call(ann, 'GET', `/tour/${tourId}`)).status, 200)
    assert.equal((await trips.call(ann, 'GET', `/user/${annId}/tour/${tourId}`)).json.data.id, tourId)
    assert.equal((await trips.call(ann, 'GET', '/tour/424242')).status, 404)
  })

  await t.test('GET /tour?user_id= and /user/{id}/tour list created and joined tours in order; others see only shared ones', async () => {
    const people = await crew(trips)
    const { ann, bob, eve, bobId } = people
    const tourId = await rogersPass(trips, people, false)
    assert.equal(
      (await trips.call(bob, 'POST', '/tour', { date: '2027-05-05', location: 'Bugaboos', creator_id: Number(bobId) })).status,
      200
    )
    const added = await trips.call(ann, 'POST', '/tour_user', { email_address: bob, tour_id: Number(tourId) })
    assert.equal(added.status, 200)
    const viaQuery = await trips.call(bob, 'GET', `/tour?user_id=${bobId}`)
    const viaPath = await trips.call(bob, 'GET', `/user/${bobId}/tour`)
    assert.deepEqual(viaQuery.json, viaPath.json)
    assert.deepEqual(
      viaQuery.json.data.map((x: any) => x.attributes.location),
      ['Bugaboos', 'Rogers Pass']
    )
    const annSeesBob = await trips.call(ann, 'GET', `/user/${bobId}/tour`)
    assert.deepEqual(
      annSeesBob.json.data.map((x: any) => x.id),
      [tourId]
    )
    assert.deepEqual((await trips.call(eve, 'GET', `/user/${bobId}/tour`)).json.data, [])
    assert.equal((await trips.call(ann, 'GET', '/user/99999/tour')).status, 404)
    assert.equal((await trips.call(ann, 'GET', '/tour')).status, 422)
  })

  await t.test('members update with 202 (PATCH and PUT, strings cast); non-members 404', async () => {
    const people = await crew(trips)
    const { ann, bob, eve, annId } = people
    const tourId = await rogersPass(trips, people)
    const res = await trips.call(bob, 'PATCH', `/tour/${tourId}?location=deathstar&complete=true`)
    assert.equal(res.status, 202)
    assert.deepEqual(res.json.data.attributes, { date: '2027-01-15', location: 'deathstar', creator_id: Number(annId), complete: 'true' })
    const put = await trips.call(ann, 'PUT', `/user/${annId}/tour/${tourId}`, { complete: false })
    assert.equal(put.json.data.attributes.complete, 'false')
    assert.equal((await trips.call(eve, 'PATCH', `/tour/${tourId}`, { location: 'mine' })).status, 404)
  })

  await t.test('plans: members create (empty body → "nil"), route_avalanche aliases route_alternative, both emitted', async () => {
    const people = await crew(trips)
    const { ann, bob, eve, annId, bobId } = people
    const tourId = await rogersPass(trips, people)
    const empty = await trips.call(bob, 'POST', `/user/${bobId}/tour/${tourId}/plan`, {})
    assert.equal(empty.status, 200)
    const attrs = empty.json.data.attributes
    assert.equal(empty.json.data.type, 'plan')
    for (const field of [
      'hazard_weather',
      'hazard_avalanche',
      'hazard_summary',
      'route_preview',
      'route_alternative',
      'route_avalanche',
      'emergency_plan',
      'debrief_conditions',
      'debrief_decisions',
      'debrief_plan'
    ]) {
      assert.equal(attrs[field], 'nil', field)
    }
    assert.equal(attrs.checklist, 'false')
    const aliased = await trips.call(ann, 'POST', '/plan', {
      tour_id: Number(tourId),
      route_avalanche: 'north couloir',
      hazard_weather: 'windy'
    })
    assert.equal(aliased.json.data.attributes.route_alternative, 'north couloir')
    assert.equal(aliased.json.data.attributes.route_avalanche, 'north couloir')
    const list = await trips.call(ann, 'GET', `/user/${annId}/tour/${tourId}/plan`)
    assert.deepEqual(
      list.json.data.map((p: any) => p.id),
      [empty.json.data.id, aliased.json.data.id]
    )
    const updated = await trips.call(bob, 'PATCH', `/plan/${aliased.json.data.id}`, {
      route_alternative: 'south face',
      departure_check: 'true'
    })
    assert.equal(updated.status, 202)
    assert.equal(updated.json.data.attributes.route_avalanche, 'south face')
    assert.equal(updated.json.data.attributes.departure_check, 'true')
    assert.equal(updated.json.data.attributes.hazard_weather, 'windy')
    assert.equal((await trips.call(eve, 'GET', `/plan/${aliased.json.data.id}`)).status, 404)
    assert.equal((await trips.call(eve, 'POST', `/user/${bobId}/tour/${tourId}/plan`, {})).status, 404)
    assert.equal((await trips.call(ann, 'PATCH', `/plan/${aliased.json.data.id}`, { hazard_summary: '' })).status, 422)
    assert.equal((await trips.call(bob, 'DELETE', `/plan/${empty.json.data.id}`)).status, 403)
    assert.equal((await trips.call(ann, 'DELETE', `/plan/${empty.json.data.id}`)).status, 204)
    assert.equal((await trips.call(ann, 'GET', `/plan/${empty.json.data.id}`)).status, 404)
  })

  await t.test('only the creator changes creator_id, and only to a member; nothing is written otherwise', async () => {
    const people = await crew(trips)
    const { ann, bob, eve, annId, bobId } = people
    const tourId = await rogersPass(trips, people)
    const eveId = Number((await trips.call(eve, 'GET', `/user/${eve}`)).json.data.id)
    const seized = await trips.call(bob, 'PATCH', `/tour/${tourId}`, { creator_id: Number(bobId), location: 'mine' })
    assert.equal(seized.status, 403)
    assert.equal(seized.json.errors[0].code, 'TRIPS_NOT_CREATOR')
    assert.equal((await trips.call(bob, 'DELETE', `/tour/${tourId}`)).status, 403)
    for (const creatorId of [eveId, 99999]) {
      const outsider = await trips.call(ann, 'PATCH', `/tour/${tourId}`, { creator_id: creatorId })
      assert.equal(outsider.status, 422, String(creatorId))
      assert.equal(outsider.json.errors[0].source.pointer, '/creator_id')
    }
    const unchanged = (await trips.call(ann, 'GET', `/tour/${tourId}`)).json.data.attributes
    assert.deepEqual([unchanged.creator_id, unchanged.location], [Number(annId), 'Rogers Pass'])
    assert.equal((await trips.call(bob, 'PATCH', `/tour/${tourId}`, { creator_id: Number(annId), location: 'same' })).status, 202)
    const handed = await trips.call(ann, 'PUT', `/tour/${tourId}`, { creator_id: bobId })
    assert.equal(handed.status, 202)
    assert.equal(handed.json.data.attributes.creator_id, Number(bobId))
    assert.equal((await trips.call(ann, 'DELETE', `/tour/${tourId}`)).status, 403)
    assert.equal((await trips.call(bob, 'DELETE', `/tour/${tourId}`)).status, 204)
  })

  await t.test('only the creator deletes a tour; its plans and links go with it', async () => {
    const people = await crew(trips)
    const { ann, bob, annId } = people
    const tourId = await rogersPass(trips, people)
    assert.equal((await trips.call(ann, 'POST', '/plan', { tour_id: Number(tourId) })).status, 200)
    const del = await trips.call(bob, 'DELETE', `/tour/${tourId}`)
    assert.equal(del.status, 403)
    assert.equal(del.json.errors[0].code, 'TRIPS_NOT_CREATOR')
    const plans = (await trips.call(ann, 'GET', `/user/${annId}/tour/${tourId}/plan`)).json.data
    assert.equal(plans.length, 1)
    const ok = await trips.call(ann, 'DELETE', `/tour/${tourId}`)
    assert.equal(ok.status, 204)
    assert.equal(ok.body, '')
    assert.equal((await trips.call(ann, 'GET', `/tour/${tourId}`)).status, 404)
    assert.equal((await trips.call(ann, 'GET', `/plan/${plans[0].id}`)).status, 404)
    const links = await trips.database.db.selectFrom('trips_tour_users').selectAll().where('tour_id', '=', Number(tourId)).execute()
    assert.equal(links.length, 0)
    const planRows = await trips.database.db.selectFrom('trips_plans').selectAll().where('tour_id', '=', Number(tourId)).execute()
    assert.equal(planRows.length, 0)
  })
})

test('tour members: add by e-mail, list both ways, duplicates and unknown users are 422', async (t) => {
  const trips = await startTrips()

  await t.test('POST /tour_user (query string, no body) links a user found case-insensitively', async () => {
    const people = await crew(trips)
    const tourId = await rogersPass(trips, people, false)
    const res = await trips.call(people.ann, 'POST', `/tour_user?email_address=${people.bob.toUpperCase()}&tour_id=${tourId}`)
    assert.equal(res.status, 200)
    assert.deepEqual(res.json.data.attributes, { tour_id: tourId, user_id: people.bobId })
    assert.equal(res.json.data.type, 'tour_user')
  })

  await t.test('an empty JSON body with a JSON content type is accepted (browser clients send it)', async () => {
    const people = await crew(trips)
    const tourId = await rogersPass(trips, people, false)
    const res = await trips.app.inject({
      method: 'POST',
      url: `/api/private/v1/tour_user?email_address=${people.bob}&tour_id=${tourId}`,
      headers: { authorization: `Bearer ${await trips.token(people.ann)}`, 'content-type': 'application/json' }
    })
    assert.equal(res.statusCode, 200, res.body)
  })

  await t.test('duplicates and unknown e-mails are 422; non-members cannot add (404)', async () => {
    const people = await crew(trips)
    const { ann, bob, eve } = people
    const tourId = await rogersPass(trips, people)
    const dup = await trips.call(ann, 'POST', '/tour_user', { email_address: bob, tour_id: Number(tourId) })
    assert.equal(dup.status, 422)
    assert.equal(dup.json.errors[0].detail, 'User Tour relationship already exists')
    const unknown = await trips.call(ann, 'POST', '/tour_user', { email_address: 'ghost@example.com', tour_id: Number(tourId) })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.json.errors[0].code, 'TRIPS_MEMBER_USER_UNKNOWN')
    assert.equal((await trips.call(eve, 'POST', '/tour_user', { email_address: eve, tour_id: Number(tourId) })).status, 404)
    assert.equal((await trips.call(ann, 'POST', '/tour_user', { email_address: eve, tour_id: 99999 })).status, 404)
  })

  await t.test("GET /tour_user?tour_id= lists users, creator first; ?user_id= lists that user's links", async () => {
    const people = await crew(trips)
    const { ann, bob, eve, bobId } = people
    const tourId = await rogersPass(trips, people)
    const cat = `cat${crews}@example.com`
    await user(trips, cat)
    assert.equal((await trips.call(bob, 'POST', '/tour_user', { email_address: cat, tour_id: Number(tourId) })).status, 200)
    const users = await trips.call(bob, 'GET', `/tour_user?tour_id=${tourId}`)
    assert.deepEqual(
      users.json.data.map((u: any) => [u.type, u.attributes.email_address]),
      [
        ['user', ann],
        ['user', bob],
        ['user', cat]
      ]
    )
    const links = await trips.call(ann, 'GET', `/tour_user?user_id=${bobId}`)
    assert.deepEqual(
      links.json.data.map((l: any) => [l.type, l.attributes]),
      [['tour_user', { tour_id: tourId, user_id: bobId }]]
    )
    assert.deepEqual((await trips.call(eve, 'GET', `/tour_user?user_id=${bobId}`)).json.data, [])
    assert.equal((await trips.call(eve, 'GET', `/tour_user?tour_id=${tourId}`)).status, 404)
    assert.equal((await trips.call(ann, 'GET', '/tour_user')).status, 422)
  })

  await t.test('two clients adding the same member at once: exactly one link, one 422', async () => {
    const people = await crew(trips)
    const { ann, bob } = people
    const tourId = await rogersPass(trips, people)
    const dan = `dan${crews}@example.com`
    const danId = await user(trips, dan)
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        trips.call(i % 2 ? ann : bob, 'POST', '/tour_user', { email_address: dan, tour_id: Number(tourId) })
      )
    )
    const statuses = attempts.map((a) => a.status).sort()
    assert.deepEqual(statuses, [200, 422, 422, 422, 422, 422, 422, 422])
    const rows = await trips.database.db.selectFrom('trips_tour_users').selectAll().where('user_id', '=', Number(danId)).execute()
    assert.equal(rows.length, 1)
  })
})

test('caller without a user record gets 403 explaining what to do', async () => {
  const trips = await startTrips()
  const annId = await user(trips, 'ann@example.com')
  const res = await trips.call('stranger@example.com', 'GET', `/user/${annId}/tour`)
  assert.equal(res.status, 403)
  assert.equal(res.json.errors[0].code, 'TRIPS_CALLER_UNKNOWN')
  assert.match(res.json.errors[0].detail, /POST \/user/)
})

test('a tour deleted while plans and members are added: 404 for the late writes (never a 5xx), nothing left behind', async () => {
  const trips = await startTrips()
  const c = await crew(trips)
  for (let round = 0; round < 5; round++) {
    const tourId = await rogersPass(trips, c, false)
    const requests = Array.from({ length: 30 }, (_, i) => {
      if (i === 10 + round) return trips.call(c.ann, 'DELETE', `/tour/${tourId}`)
      if (i % 3 === 0) return trips.call(c.ann, 'POST', '/tour_user', { email_address: i % 2 ? c.bob : c.eve, tour_id: Number(tourId) })
      return trips.call(c.ann, 'POST', `/user/${c.annId}/tour/${tourId}/plan`, { hazard_weather: `plan ${i}` })
    })
    const responses = await Promise.all(requests)
    responses.forEach((r, i) => {
      const allowed = i === 10 + round ? [204] : i % 3 === 0 ? [200, 404, 422] : [200, 404]
      assert.ok(allowed.includes(r.status), `request ${i}: ${r.status} ${r.body}`)
    })
    const plans = await trips.database.db.selectFrom('trips_plans').select('id').where('tour_id', '=', Number(tourId)).execute()
    const links = await trips.database.db.selectFrom('trips_tour_users').select('id').where('tour_id', '=', Number(tourId)).execute()
    assert.deepEqual([plans.length, links.length], [0, 0])
  }
})
