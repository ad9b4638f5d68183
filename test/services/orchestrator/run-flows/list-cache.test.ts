import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { openDatabase } from '../../../../src/core/db/database.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createRunFlowsRepository } from '../../../../src/services/orchestrator/state/run-flows.repository.js'
import { eventually } from '../../../helpers/orchestrator.js'
import { approve, flowServer, propose, SLOW } from './helpers.js'

const states = (list: { json: { flows: { flowId: string; state: string }[] } }) => list.json.flows.map((f) => [f.flowId, f.state])

test('the flow list shows a write made through another connection (another process) on the very next read', async () => {
  const orch = await flowServer()
  const first = await propose(orch, 'Write note 1 into notes.txt')
  const second = await propose(orch, 'Write note 2 into notes.txt')
  const before = await orch.call('GET', '/api/run-flow/list')
  assert.deepEqual(states(before), [
    [second.flowId, 'AWAITING_APPROVAL'],
    [first.flowId, 'AWAITING_APPROVAL']
  ])
  // Read again: the page is now kept at this revision (and must still be right).
  assert.equal((await orch.call('GET', '/api/run-flow/list')).body, before.body)

  const other = await openDatabase({
    url: orch.config.databaseUrl,
    sqlitePath: path.join(orch.config.dataDir, 'quartet.db'),
    poolSize: 1
  })
  try {
    const outside = createRunFlowsRepository(other.db as OrchestratorDb, () => new Date())
    const moved = await outside.transition(first.flowId, {
      from: ['AWAITING_APPROVAL'],
      to: 'CANCELLED',
      change: { cancelReason: 'cancelled from another process' },
      events: [{ type: 'FLOW_ABORTED', data: { reason: 'test' } }]
    })
    assert.equal(moved?.state, 'CANCELLED')
  } finally {
    await other.close()
  }
  assert.deepEqual(states(await orch.call('GET', '/api/run-flow/list')), [
    [second.flowId, 'AWAITING_APPROVAL'],
    [first.flowId, 'CANCELLED']
  ])

  // A new flow and a page past the first one are fresh too.
  const third = await propose(orch, 'Write note 3 into notes.txt')
  const page = await orch.call('GET', '/api/run-flow/list?limit=1')
  assert.deepEqual(states(page), [[third.flowId, 'AWAITING_APPROVAL']])
  const next = await orch.call('GET', `/api/run-flow/list?limit=1&cursor=${encodeURIComponent(page.json.nextCursor)}`)
  assert.deepEqual(states(next), [[second.flowId, 'AWAITING_APPROVAL']])
})

test('a listed running flow whose job was killed is not listed as running on the next read', async () => {
  const orch = await flowServer({ agent: SLOW })
  const { flowId } = await propose(orch)
  await approve(orch, flowId)
  const started = await orch.call('POST', `/api/run-flow/${flowId}/start`)
  assert.equal(started.status, 202, started.body)
  const jobId = started.json.context.handle.jobId as number
  const job = await eventually(
    async () => {
      const row = await orch.repositories.jobs.get(jobId)
      return row?.pid ? row : null
    },
    30_000,
    'the job to record its pid'
  )
  assert.deepEqual(states(await orch.call('GET', '/api/run-flow/list')), [[flowId, 'DETACHED_RUNNING']])
  assert.deepEqual(states(await orch.call('GET', '/api/run-flow/list')), [[flowId, 'DETACHED_RUNNING']])

  process.kill(job.pid as number, 'SIGKILL')
  await eventually(
    async () => {
      try {
        process.kill(job.pid as number, 0)
        return false
      } catch {
        return true
      }
    },
    10_000,
    'the job to die'
  )
  const after = await orch.call('GET', '/api/run-flow/list')
  assert.equal(after.status, 200, after.body)
  assert.equal(after.json.flows[0].flowId, flowId)
  assert.equal(after.json.flows[0].state, 'FAILED', 'a flow whose job died is FAILED on the first read after its death')
})
