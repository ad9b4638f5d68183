import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

test('an empty project answers every read route honestly: idle status, empty lists, 404 where there is nothing', async () => {
  const orch = await startOrchestrator()

  const status = await orch.call('GET', '/api/status')
  assert.equal(status.status, 200, status.body)
  assert.deepEqual(status.json.sprint, { id: null, phase: 'IDLE', status: 'IDLE' })
  assert.equal(status.json.idle, true)
  assert.equal(status.json.lifecycle, 'IDLE')
  assert.equal(status.json.active, false)
  assert.equal(status.json.resumable, false)
  assert.equal(status.json.recoveryCommand, null)
  assert.deepEqual(status.json.agents, [])
  assert.deepEqual(status.json.alerts, [])
  assert.equal(status.json.lastSprint, null)
  assert.equal(status.json.progress.total, 0)
  assert.deepEqual(status.json.statusReadModel, { state: 'fresh', source: 'database', revision: 0 })
  assert.ok(!Number.isNaN(Date.parse(status.json.updatedAt)))

  assert.deepEqual((await orch.call('GET', '/api/sprint')).json, { error: 'No sprint logs found' })
  assert.equal((await orch.call('GET', '/api/sprint')).status, 404)
  assert.deepEqual((await orch.call('GET', '/api/history')).json, [])
  assert.deepEqual((await orch.call('GET', '/api/tasks')).json, [])
  assert.deepEqual((await orch.call('GET', '/api/workers')).json, [])

  const live = await orch.call('GET', '/api/sprint/live')
  assert.equal(live.status, 200, live.body)
  assert.equal(live.json.schemaVersion, 1)
  assert.equal(live.json.revision, 0)
  assert.equal(live.json.sprintId, null)
  assert.equal(live.json.active, false)
  assert.deepEqual(live.json.workers, [])
  assert.deepEqual(live.json.locks, [])
  assert.equal(live.json.lifecycle.lifecycle, 'IDLE')
  assert.equal(live.json.lifecycle.coordinator, 'absent')

  assert.deepEqual(await orch.call('GET', '/api/job/1').then((r) => [r.status, r.json]), [404, { error: 'Job not found' }])
  assert.deepEqual(await orch.call('GET', '/api/sprint/task/s1-1').then((r) => [r.status, r.json]), [404, { error: 'task not found' }])
  assert.deepEqual(await orch.call('GET', '/api/worker/s1-1/log').then((r) => [r.status, r.json]), [404, { error: 'Task not found' }])
  assert.deepEqual(await orch.call('GET', '/api/tasks?sprint=s77').then((r) => [r.status, r.json]), [404, { error: 'No sprint found' }])
  assert.deepEqual(await orch.call('GET', '/api/output-stream?taskId=s1-1').then((r) => [r.status, r.json]), [
    404,
    { error: 'Task not found' }
  ])
})

test('malformed ids and parameters are refused before any lookup', async () => {
  const orch = await startOrchestrator()
  for (const id of ['-leading-dash', 'semi%3Bcolon', 'sp%20ace']) {
    const detail = await orch.call('GET', `/api/sprint/task/${id}`)
    assert.equal(detail.status, 403, `${id}: ${detail.body}`)
    assert.deepEqual(detail.json, { error: 'Invalid task id' })
    assert.equal((await orch.call('GET', `/api/worker/${id}/log`)).status, 403)
  }
  for (const tailLines of ['0', '201', 'abc', '1.5', '-3', '']) {
    const detail = await orch.call('GET', `/api/sprint/task/s1-1?tailLines=${tailLines}`)
    assert.equal(detail.status, 400, `tailLines=${tailLines}: ${detail.body}`)
    assert.match(detail.json.error, /^VALIDATION_ERROR: tailLines/)
  }
  // A valid tail on an unknown task is a plain 404.
  assert.equal((await orch.call('GET', '/api/sprint/task/s1-1?tailLines=200')).status, 404)
  for (const sinceRevision of ['-1', 'abc', '1.5', '99999999999999999']) {
    const stream = await orch.call('GET', `/api/sprint/live/stream?sinceRevision=${sinceRevision}`)
    assert.equal(stream.status, 400, `sinceRevision=${sinceRevision}: ${stream.body}`)
    assert.match(stream.json.error, /^VALIDATION_ERROR: sinceRevision/)
  }
  assert.deepEqual(await orch.call('GET', '/api/output-stream').then((r) => [r.status, r.json]), [400, { error: 'Missing taskId' }])
  assert.equal((await orch.call('GET', '/api/output-stream?taskId=-bad')).status, 403)
  for (const id of ['abc', '1e3', '-1', '0x10'])
    assert.deepEqual(await orch.call('GET', `/api/job/${id}`).then((r) => [r.status, r.json]), [404, { error: 'Job not found' }], id)
})
