import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventually } from '../../../helpers/orchestrator.js'
import { approve, FAILING, flowServer, propose, readSse } from './helpers.js'

test('propose → preview → approve → start → COMPLETED, as a mission, with the flow events replayed over SSE', async () => {
  const orch = await flowServer()
  const proposed = await propose(orch, 'Write a note into notes.txt\nOne line is enough.')
  assert.equal(proposed.state, 'AWAITING_APPROVAL')
  assert.match(proposed.flowId, /^[A-Za-z0-9_-]+$/)
  assert.match(proposed.planDigest, /^[0-9a-f]{64}$/)
  const flow = (await orch.call('GET', `/api/run-flow/${proposed.flowId}`)).json
  assert.equal(flow.proposal.intentSummary, 'Write a note into notes.txt\nOne line is enough.')
  assert.equal(flow.proposal.origin, 'api')
  // The actor is the verified caller's, never the body's.
  assert.equal(flow.proposal.actor.id, 'api-static')
  assert.equal(flow.proposal.tenant, 'local')
  assert.equal(flow.revision, 1)

  const preview = await orch.call('GET', `/api/run-flow/${proposed.flowId}/preview`)
  assert.equal(preview.status, 200)
  assert.equal(preview.json.planDigest, proposed.planDigest)
  assert.deepEqual(preview.json.taskSummaries, [{ title: 'Write a note into notes.txt', summary: 'Write a note into notes.txt' }])

  const planned = await orch.call('GET', `/api/run-flow/${proposed.flowId}/diff`)
  assert.equal(planned.json.phase, 'planned')

  const approved = await approve(orch, proposed.flowId)
  assert.equal(approved.state, 'APPROVED')
  assert.equal(approved.approvedSnapshot.planDigest, proposed.planDigest)
  assert.equal(approved.approvedSnapshot.approvedBy.id, 'api-static')

  const started = await orch.call('POST', `/api/run-flow/${proposed.flowId}/start`)
  assert.equal(started.status, 202, started.body)
  assert.equal(started.json.duplicate, false)
  assert.match(started.json.attemptId, /^att-/)
  assert.equal(started.json.context.state, 'DETACHED_RUNNING')
  const again = await orch.call('POST', `/api/run-flow/${proposed.flowId}/start`)
  assert.equal(again.status, 202)
  assert.equal(again.json.duplicate, true)
  assert.equal(again.json.attemptId, started.json.attemptId)

  const done = await eventually(
    async () => {
      const now = (await orch.call('GET', `/api/run-flow/${proposed.flowId}`)).json
      return now.state === 'COMPLETED' ? now : null
    },
    60_000,
    'the flow to complete'
  )
  assert.equal(done.handle.jobId, started.json.context.handle.jobId)
  // A started flow is a mission of the caller's tenant.
  const mission = await orch.call('GET', `/api/missions/${done.missionId}`)
  assert.equal(mission.status, 200, mission.body)
  assert.equal(mission.json.status, 'completed')
  const jobs = await orch.database.db
    .selectFrom('orch_jobs' as never)
    .selectAll()
    .execute()
  assert.equal(jobs.length, 1, 'a repeated start never starts a second job')

  const actual = await orch.call('GET', `/api/run-flow/${proposed.flowId}/diff`)
  assert.equal(actual.json.phase, 'actual')
  assert.deepEqual(
    actual.json.files.map((f: { path: string }) => f.path),
    ['notes.txt']
  )

  const base = await orch.listen()
  const auth = { authorization: `Bearer ${orch.token}` }
  const all = await readSse(`${base}/api/run-flow/${proposed.flowId}/events`, auth, (f) => f.some((x) => x.event === 'RUN_COMPLETED'))
  assert.deepEqual(
    all.frames.map((f) => f.event),
    ['PROPOSAL_SUBMITTED', 'PREVIEW_STARTED', 'PREVIEW_READY', 'APPROVAL_GRANTED', 'START_REQUESTED', 'RUN_STARTED', 'RUN_COMPLETED']
  )
  assert.deepEqual(
    all.frames.map((f) => Number(f.id)),
    [1, 2, 3, 4, 5, 6, 7]
  )
  for (const frame of all.frames) {
    assert.equal(frame.data.schemaVersion, 1)
    assert.equal(frame.data.flowId, proposed.flowId)
    assert.equal(frame.data.sequence, Number(frame.id))
  }
  const afterQuery = await readSse(`${base}/api/run-flow/${proposed.flowId}/events?after=4`, auth, (f) => f.length >= 3, 5000)
  assert.deepEqual(
    afterQuery.frames.map((f) => Number(f.id)),
    [5, 6, 7]
  )
  const lastEventId = await readSse(
    `${base}/api/run-flow/${proposed.flowId}/events`,
    { ...auth, 'last-event-id': '6' },
    (f) => f.length >= 1,
    5000
  )
  assert.deepEqual(
    lastEventId.frames.map((f) => f.event),
    ['RUN_COMPLETED']
  )
  // Query token for the GET stream only.
  const queryToken = await readSse(
    `${base}/api/run-flow/${proposed.flowId}/events?after=6&token=${orch.token}`,
    {},
    (f) => f.length >= 1,
    5000
  )
  assert.equal(queryToken.status, 200)
  assert.equal(
    (await orch.call('POST', `/api/run-flow/${proposed.flowId}/cancel?token=${orch.token}`, {}, { authorization: '' })).status,
    401
  )

  const list = await orch.call('GET', '/api/run-flow/list')
  assert.deepEqual(
    list.json.flows.map((f: { flowId: string; state: string }) => [f.flowId, f.state]),
    [[proposed.flowId, 'COMPLETED']]
  )
})

test('a flow whose job fails is FAILED with the reason within 2 s of the job end, never a phantom running', async () => {
  const orch = await flowServer({ agent: FAILING })
  const { flowId } = await propose(orch)
  await approve(orch, flowId)
  const started = await orch.call('POST', `/api/run-flow/${flowId}/start`)
  assert.equal(started.status, 202, started.body)
  const jobId = started.json.context.handle.jobId
  const finishedAt = await eventually(
    async () => {
      const job = (await orch.repositories.jobs.get(jobId))!
      return job.active ? null : Date.now()
    },
    60_000,
    'the job to end'
  )
  const failed = await eventually(
    async () => {
      const now = (await orch.call('GET', `/api/run-flow/${flowId}`)).json
      return now.state === 'FAILED' || now.state === 'COMPLETED' ? now : null
    },
    5000,
    'the flow to end'
  )
  assert.ok(Date.now() - finishedAt < 2000, `flow ended ${Date.now() - finishedAt} ms after its job`)
  assert.equal(failed.state, 'FAILED')
  assert.equal(failed.failureReason, '1 of 1 task(s) did not pass')
  const events = await orch.call('GET', '/api/run-flow/list')
  assert.equal(events.json.flows[0].state, 'FAILED')
})
