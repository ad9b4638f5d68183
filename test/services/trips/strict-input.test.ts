import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TRIPS_PREFIX } from '../../../src/services/trips/app.js'
import { startTrips } from '../../helpers/trips.js'
import { EMPTY_JSON_VARIANTS, injectEmptyJson, NON_FINITE } from '../../helpers/strict-input.js'

function assertTrips422(res: { status: number; json: any; body: string }, what: string) {
  assert.equal(res.status, 422, `${what}: ${res.body}`)
  assert.equal(res.json.errors[0].status, '422', what)
  assert.equal(res.json.errors[0].code, 'TRIPS_VALIDATION_FAILED', what)
}

test('trips: JSON values of the wrong type are 422 and nothing is written; strings are still cast', async (t) => {
  const trips = await startTrips()
  const annId = (await trips.call('ann@example.com', 'POST', '/user', { user_name: 'ann', email_address: 'ann@example.com' })).json.data.id
  const tour = await trips.call('ann@example.com', 'POST', `/user/${annId}/tour`, { date: '2027-01-15', location: 'Rogers Pass' })
  const tourId = tour.json.data.id
  const before = (await trips.call('ann@example.com', 'GET', `/tour/${tourId}`)).json

  await t.test('wrong JSON types on update: 422 with a pointer, the tour unchanged', async () => {
    for (const [body, pointer] of [
      [{ complete: 5 }, '/complete'],
      [{ location: true }, '/location'],
      [{ location: 5 }, '/location'],
      [{ creator_id: true }, '/creator_id'],
      [{ location: ['x'] }, '/location']
    ] as const) {
      const res = await trips.call('ann@example.com', 'PATCH', `/tour/${tourId}`, body)
      assertTrips422(res, JSON.stringify(body))
      assert.equal(res.json.errors[0].source.pointer, pointer)
    }
    assert.deepEqual((await trips.call('ann@example.com', 'GET', `/tour/${tourId}`)).json, before)
  })

  await t.test('a body of the wrong top-level type is 422 and creates nothing', async () => {
    for (const payload of ['true', '"x"', '[]', '5']) {
      const res = await trips.app.inject({
        method: 'POST',
        url: `${TRIPS_PREFIX}/user/${annId}/tour`,
        payload,
        headers: { authorization: `Bearer ${await trips.token('ann@example.com')}`, 'content-type': 'application/json' }
      })
      assertTrips422({ status: res.statusCode, json: res.json(), body: res.body }, payload)
    }
    const created = await trips.call('ann@example.com', 'POST', '/user', { user_name: 5, email_address: 'five@example.com' })
    assertTrips422(created, 'user_name 5')
    assert.equal((await trips.call('ann@example.com', 'GET', '/user/five@example.com')).status, 404)
    assert.equal((await trips.call('ann@example.com', 'GET', `/user/${annId}/tour`)).json.data.length, 1)
  })

  await t.test(
    'strings are cast as Rails did: the id as the original client sends it, "true", query parameters beside a JSON body',
    async () => {
      const asClient = await trips.call('ann@example.com', 'POST', `/user/${annId}/tour`, {
        creator_id: annId,
        date: '2027-02-01',
        location: 'Glacier',
        complete: 'false'
      })
      assert.equal(asClient.status, 200, asClient.body)
      assert.equal(asClient.json.data.attributes.creator_id, Number(annId))
      const mixed = await trips.call('ann@example.com', 'PATCH', `/tour/${asClient.json.data.id}?complete=true`, { location: 'Asulkan' })
      assert.equal(mixed.status, 202, mixed.body)
      assert.deepEqual([mixed.json.data.attributes.location, mixed.json.data.attributes.complete], ['Asulkan', 'true'])
      // A JSON value wins over the query parameter of the same name and keeps its JSON type rule.
      assertTrips422(
        await trips.call('ann@example.com', 'PATCH', `/tour/${asClient.json.data.id}?location=ok`, { location: 7 }),
        'JSON 7 over query'
      )
    }
  )

  await t.test('non-finite numbers in the query are 422 in the JSON:API shape; in the path they name nothing (404)', async () => {
    for (const value of NON_FINITE) {
      const v = encodeURIComponent(value)
      for (const path of [`/tour?user_id=${v}`, `/tour_user?user_id=${v}`, `/tour_user?tour_id=${v}`]) {
        assertTrips422(await trips.call('ann@example.com', 'GET', path), path)
      }
      const paths: [string, string][] = [
        ['GET', `/tour/${v}`],
        ['GET', `/plan/${v}`],
        ['GET', `/user/${annId}/tour/${v}`],
        ['GET', `/user/${v}/tour`],
        ['GET', `/user/${annId}/tour/${v}/plan`],
        ['GET', `/user/${annId}/tour/${tourId}/plan/${v}`],
        ['PATCH', `/tour/${v}`],
        ['PUT', `/plan/${v}`],
        ['DELETE', `/tour/${v}`],
        ['DELETE', `/user/${v}`],
        ['POST', `/user/${annId}/tour/${v}/plan`]
      ]
      for (const [method, path] of paths) {
        const res = await trips.call('ann@example.com', method, path, method === 'GET' || method === 'DELETE' ? undefined : {})
        assert.equal(res.status, 404, `${method} ${path}: ${res.body}`)
        assert.equal(res.json.errors[0].status, '404', path)
      }
    }
  })

  await t.test('GET and DELETE with Content-Type: application/json and an empty body (with and without Content-Length: 0)', async () => {
    const authorization = `Bearer ${await trips.token('ann@example.com')}`
    for (const variant of EMPTY_JSON_VARIANTS) {
      const read = await injectEmptyJson(trips.app, 'GET', `${TRIPS_PREFIX}/tour/${tourId}`, variant, { authorization })
      assert.equal(read.status, 200, read.body)
      assert.equal(read.json.data.id, tourId)
      const spare = await trips.call('ann@example.com', 'POST', `/user/${annId}/tour`, { date: '2027-03-01', location: 'Spare' })
      const gone = await injectEmptyJson(trips.app, 'DELETE', `${TRIPS_PREFIX}/tour/${spare.json.data.id}`, variant, { authorization })
      assert.equal(gone.status, 204, gone.body)
      assert.equal((await trips.call('ann@example.com', 'GET', `/tour/${spare.json.data.id}`)).status, 404)
    }
  })
})
