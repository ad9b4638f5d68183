import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { snapshotTables } from '../../../helpers/db.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt', '{taskId}'] }
const KNOWN = ['approval.decide', 'approval.list', 'limits.get', 'run.start-detached', 'run.status', 'session.list', 'session.resume']

const call = (orch: OrchestratorHarness, method: string, params?: unknown, extra: Record<string, unknown> = {}) =>
  orch.call('POST', '/api/rpc', { id: 'req-1', version: '1.0', method, ...(params !== undefined ? { params } : {}), ...extra })

async function errorOf(orch: OrchestratorHarness, method: string, params?: unknown, extra: Record<string, unknown> = {}) {
  const answer = await call(orch, method, params, extra)
  assert.equal(answer.status, 200, answer.body)
  assert.equal(answer.json.id, 'req-1')
  assert.equal(answer.json.version, '1.0')
  assert.equal('result' in answer.json, false, answer.body)
  return answer.json.error as { code: string; message: string; data?: any }
}

test('malformed envelopes answer 400 {error: "Invalid RPC request: …"}; every typed error code answers 200, and none writes', async () => {
  const orch = await startOrchestrator({ config: { agents: { sh: AGENT }, default_agent: 'sh' } })
  const before = await snapshotTables(orch.database, 'orch_')
  for (const body of [
    [],
    'x',
    7,
    null,
    {},
    { id: '', version: '1.0', method: 'limits.get' },
    { id: 1, version: '1.0', method: 'limits.get' },
    { id: 'a', method: 'limits.get' },
    { id: 'a', version: '1.0' },
    { id: 'a', version: '1.0', method: 'limits.get', extra: 1 }
  ]) {
    const answer = await orch.call('POST', '/api/rpc', body)
    assert.equal(answer.status, 400, `${JSON.stringify(body)} → ${answer.body}`)
    assert.match(answer.json.error, /^Invalid RPC request: /)
  }
  const mismatch = await errorOf(orch, 'limits.get', undefined, { version: '2.0' })
  assert.deepEqual([mismatch.code, mismatch.data], ['VERSION_MISMATCH', { requestVersion: '2.0', expectedVersion: '1.0' }])
  const unknown = await errorOf(orch, 'run.explode')
  assert.deepEqual([unknown.code, unknown.data], ['UNKNOWN_METHOD', { method: 'run.explode', knownMethods: KNOWN }])
  assert.equal((await errorOf(orch, 'toString')).code, 'UNKNOWN_METHOD')
  const resume = await errorOf(orch, 'session.resume', { sessionId: 's1' })
  assert.deepEqual([resume.code, resume.data], ['METHOD_NOT_IMPLEMENTED', { method: 'session.resume' }])
  const invalid = await errorOf(orch, 'approval.decide', { decision: 'maybe', extra: true })
  assert.equal(invalid.code, 'INVALID_PARAMS')
  assert.deepEqual(invalid.data.errors, [
    'extra is not a parameter of this method',
    'requestId is required',
    'decision must be one of allow, deny, defer, escalate'
  ])
  assert.equal((await errorOf(orch, 'limits.get', [])).code, 'INVALID_PARAMS')
  assert.equal((await errorOf(orch, 'run.start-detached', { command: 'rm -rf /' })).code, 'INVALID_PARAMS')
  assert.equal((await errorOf(orch, 'run.start-detached', { command: 'run', env: { A: 'b' } })).code, 'INVALID_PARAMS')
  assert.equal((await errorOf(orch, 'run.start-detached', { command: 'run', cwd: '/tmp' })).code, 'INVALID_PARAMS')
  // The gates: approval.api_decide (off by default) and the control-mutation switch.
  const gated = await errorOf(orch, 'approval.decide', { requestId: 'apr-x', decision: 'allow' })
  assert.deepEqual([gated.code, gated.data], ['FORBIDDEN', { gate: 'approval.api_decide' }])
  assert.match(gated.message, /approval\.api_decide/)
  const control = await errorOf(orch, 'run.start-detached', { command: 'run' })
  assert.deepEqual([control.code, control.data], ['FORBIDDEN', { gate: 'api.control_mutations' }])
  const notFound = await errorOf(orch, 'run.status', { runId: '999' })
  assert.deepEqual([notFound.code, notFound.data], ['NOT_FOUND', { runId: '999' }])
  assert.equal(await snapshotTables(orch.database, 'orch_'), before)
})

test('CONFLICT and NOT_FOUND from the engine and approvals; INTERNAL_ERROR when the database fails', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      agents: { sh: AGENT },
      default_agent: 'sh',
      approval: { api_decide: true },
      limits: { windows: [{ name: 'day', hours: 24, tokens: 1000 }] }
    }
  })
  const nothing = await errorOf(orch, 'run.start-detached', { command: 'run' })
  assert.equal(nothing.code, 'CONFLICT')
  assert.match(nothing.message, /plan/)
  assert.equal((await errorOf(orch, 'approval.decide', { requestId: 'apr-none', decision: 'deny' })).code, 'NOT_FOUND')
  const parked = await orch.call('POST', '/api/process/submit', { description: 'deploy to production' })
  assert.equal((await call(orch, 'approval.decide', { requestId: parked.json.approvalId, decision: 'deny' })).json.result.ok, true)
  const twice = await errorOf(orch, 'approval.decide', { requestId: parked.json.approvalId, decision: 'allow' })
  assert.deepEqual([twice.code, twice.data.category], ['CONFLICT', 'denied'])

  const limits = await call(orch, 'limits.get', {})
  assert.deepEqual(limits.json.result.limits, (await orch.call('GET', '/api/limits')).json)
  assert.equal(limits.json.result.limits.windows[0].name, 'day')
  await sql`drop table orch_attempts`.execute(orch.database.db)
  const broken = await errorOf(orch, 'limits.get')
  assert.deepEqual(broken, { code: 'INTERNAL_ERROR', message: 'internal error' })
})

test('run.start-detached starts the planned sprint as a detached job; run.status follows it; the run is a mission', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: AGENT }, default_agent: 'sh' },
    directives: '# Run\n\n## Task 1: one\nWrite notes.\n'
  })
  assert.deepEqual((await call(orch, 'session.list')).json, { id: 'req-1', version: '1.0', result: { sessions: [] } })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await call(orch, 'run.start-detached', { command: 'run', cwd: orch.project.root, env: {} })
  assert.equal(started.json.result.created, true, started.body)
  const runId = started.json.result.runId as string
  const job = await orch.repositories.jobs.get(Number(runId))
  assert.equal(job?.sprintId, started.json.result.sprintId)
  const state = await eventually(
    async () => {
      const s = (await call(orch, 'run.status', { runId })).json.result
      return s.state === 'completed' ? s : null
    },
    60_000,
    'the run to complete'
  )
  assert.ok(state.startedAt && state.finishedAt)
  const missions = (await orch.call('GET', '/api/missions')).json.missions
  assert.equal(missions.length, 1)
  assert.deepEqual([missions[0].status, missions[0].items[0].kind, missions[0].progress], ['completed', 'sprint', { done: 1, total: 1 }])
})
