import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { EMPTY_JSON_VARIANTS, injectEmptyJson } from '../../../helpers/strict-input.js'

test('bodiless routes take Content-Type: application/json with an empty body (with and without Content-Length: 0)', async () => {
  const orch = await startOrchestrator({ env: { QUARTET_CONTROL_MUTATIONS: '1' } })
  const authorization = `Bearer ${orch.token}`
  for (const variant of EMPTY_JSON_VARIANTS) {
    const status = await injectEmptyJson(orch.app, 'GET', '/api/status', variant, { authorization })
    assert.equal(status.status, 200, status.body)
    const cleanup = await injectEmptyJson(orch.app, 'POST', '/api/cleanup', variant, { authorization })
    assert.equal(cleanup.status, 200, cleanup.body)
    assert.equal(cleanup.json.success, true)
    const kill = await injectEmptyJson(orch.app, 'POST', '/api/kill/all', variant, { authorization })
    assert.equal(kill.status, 200, kill.body)
  }
  // A route that needs a body still answers its own error, in the orchestrator's shape.
  const config = await injectEmptyJson(orch.app, 'POST', '/api/set-directives', EMPTY_JSON_VARIANTS[1]!, { authorization })
  assert.ok(config.status >= 400 && config.status < 500, config.body)
  assert.equal(typeof config.json.error, 'string')
})
