import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { DASHBOARD_TYPES, dashboardTypes } from '../../scripts/dashboard-types.js'

test('the web dashboard API types are generated from the committed orchestrator OpenAPI document (run npm run openapi:sync)', async () => {
  assert.equal(fs.readFileSync(DASHBOARD_TYPES, 'utf8'), await dashboardTypes())
})
