import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Compile } from 'typebox/compile'
import { startTrips } from '../../helpers/trips.js'
import { fuzzService } from '../../helpers/fuzz.js'
import { JsonApiErrors, NotAuthenticated } from '../../../src/services/trips/http/jsonapi.js'

test(
  'fuzz: malformed and random requests to every trips route never 5xx, ' +
    'always answer in the error shape, and rejected writes change nothing',
  async () => {
    const trips = await startTrips()
    // Some real data so ids in random paths sometimes hit existing rows.
    const me = 'fuzz@example.com'
    const user = await trips.call(me, 'POST', '/user', { user_name: 'fuzz', email_address: me })
    const tour = await trips.call(me, 'POST', `/user/${user.json.data.id}/tour`, { date: '2027-01-01', location: 'Fuzz Peak' })
    await trips.call(me, 'POST', `/user/${user.json.data.id}/tour/${tour.json.data.id}/plan`, {})
    const apiError = Compile(JsonApiErrors)
    const authError = Compile(NotAuthenticated)
    const token = await trips.token(me)
    const report = await fuzzService({
      app: trips.app,
      openapi: trips.app.swagger(),
      database: trips.database,
      tablePrefix: 'trips_',
      authHeaders: () => ({ authorization: `Bearer ${token}` }),
      isErrorBody: (body, status) => (status === 401 ? authError.Check(body) : apiError.Check(body)),
      runsPerOperation: Number(process.env.FUZZ_RUNS ?? 30)
    })
    assert.ok(report.requests > 500, `only ${report.requests} requests were sent`)
    // Every numeric path and query parameter was also sent Infinity, 1e309, NaN, … and rejected with a 4xx.
    assert.ok(report.nonFinite > 0, 'no numeric parameter was tried with non-finite numbers')
    const rejected = Object.entries(report.byStatus)
      .filter(([s]) => Number(s) >= 400)
      .reduce((n, [, c]) => n + c, 0)
    assert.ok(rejected > report.requests / 2, `expected most random requests to be rejected: ${JSON.stringify(report.byStatus)}`)
  }
)
