import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNo5xx, fuzzOrchestrator } from '../../../helpers/orchestrator-fuzz.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { processAlive } from '../../../helpers/terminal-client.js'

test('fuzz: malformed requests to the terminal routes (terminal token) never get a 5xx and rejected writes change nothing', async () => {
  // One running session fills max_sessions, so no well-formed create spawns a process while fuzzing.
  const orch = await startOrchestrator({ git: false, config: { terminal: { max_sessions: 1, ai_tools: ['cat'] } } })
  const token = (await orch.call('GET', '/api/terminal/token')).json.token as string
  const auth = { authorization: `Bearer ${token}` }
  const held = await orch.call('POST', '/api/terminal/sessions', { kind: 'ai', tool: 'cat' }, auth)
  assert.equal(held.status, 201, held.body)
  const report = await fuzzOrchestrator(orch, {
    runs: 40,
    authHeaders: () => auth,
    skip: (method, path) => !path.startsWith('/api/terminal/sessions')
  })
  assert.ok(report.requests > 60, `only ${report.requests} requests were sent`)
  assertNo5xx(report)
  const sessions = (await orch.call('GET', '/api/terminal/sessions', undefined, auth)).json as { id: string }[]
  assert.deepEqual(
    sessions.map((s) => s.id),
    [held.json.id]
  )
  assert.ok(processAlive(held.json.pid))
})
