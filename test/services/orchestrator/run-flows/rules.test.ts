import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { orchestratorService } from '../../../../src/services/orchestrator/index.js'
import { buildService } from '../../../helpers/config.js'
import { eventually, type OrchestratorHarness } from '../../../helpers/orchestrator.js'
import { approve, flowConfig, flowServer, propose, readSse, SLOW } from './helpers.js'

const ROUTES: Array<[string, string]> = [
  ['POST', '/api/run-flow/propose'],
  ['GET', '/api/run-flow/list'],
  ['GET', '/api/run-flow/f1'],
  ['GET', '/api/run-flow/f1/preview'],
  ['GET', '/api/run-flow/f1/diff'],
  ['POST', '/api/run-flow/f1/decision'],
  ['POST', '/api/run-flow/f1/start'],
  ['POST', '/api/run-flow/f1/cancel'],
  ['GET', '/api/run-flow/f1/events']
]

test('flag off: every run-flow route, the SSE included, is 404 naming terminal.run_flow_v2, never the control 403', async () => {
  const orch = await flowServer({ control: false, config: { agents: {} } })
  for (const [method, url] of ROUTES) {
    const answer = await orch.call(method, url, method === 'POST' ? { intentSummary: 'x', decision: 'approve' } : undefined)
    assert.equal(answer.status, 404, `${method} ${url}: ${answer.body}`)
    assert.match(answer.json.error, /terminal\.run_flow_v2/, `${method} ${url}`)
  }
  // Without a token it is still 401 first: the flag does not open anything.
  assert.equal((await orch.call('GET', '/api/run-flow/list', undefined, { authorization: '' })).status, 401)
})

test('flag on, control off: mutations meet the control gate; reads answer', async () => {
  const orch = await flowServer({ control: false })
  assert.equal((await orch.call('POST', '/api/run-flow/propose', { intentSummary: 'x' })).status, 403)
  assert.deepEqual((await orch.call('GET', '/api/run-flow/list')).json, { flows: [], nextCursor: null })
})

test('ids: invalid → 400, unknown → 404; bodies are strict; a planner failure is 502 naming it, with nothing stored', async () => {
  const orch = await flowServer()
  for (const bad of ['bad%20id!', 'a.b', '...', 'a%2Fb', 'x'.repeat(129)]) {
    const answer = await orch.call('GET', `/api/run-flow/${bad}`)
    assert.equal(answer.status, 400, `${bad}: ${answer.body}`)
    assert.equal(answer.json.error, 'Invalid flow id')
  }
  assert.equal((await orch.call('GET', '/api/run-flow/unknown-flow')).status, 404)
  assert.equal((await orch.call('POST', '/api/run-flow/unknown-flow/start')).status, 404)
  assert.equal((await orch.call('POST', '/api/run-flow/propose', {})).status, 400)
  // An actor in the body is never used: the flow is the verified caller's.
  const spoofed = await orch.call('POST', '/api/run-flow/propose', { intentSummary: 'x', actor: { id: 'mallory' }, tenant: 'other' })
  assert.ok(spoofed.status === 400 || (spoofed.status === 201 && spoofed.json.proposal.actor.id === 'api-static'), spoofed.body)
  if (spoofed.status === 201) assert.equal(spoofed.json.proposal.tenant, 'local')
  await orch.call('POST', `/api/run-flow/${spoofed.json.flowId}/cancel`, {})
  assert.equal((await orch.call('POST', '/api/run-flow/unknown-flow/decision', { decision: 'maybe' })).status, 400)

  // Task blocks with an error (a dependency on a task that does not exist) make the structured planner fail.
  const before = await orch.database.db
    .selectFrom('orch_sprints' as never)
    .selectAll()
    .execute()
  const failed = await orch.call('POST', '/api/run-flow/propose', { intentSummary: '## Task 1: one\nDepends on: 7\nDo it.\n' })
  assert.equal(failed.status, 502, failed.body)
  assert.match(failed.json.error, /^planning failed: .*7/)
  assert.deepEqual(
    await orch.database.db
      .selectFrom('orch_sprints' as never)
      .selectAll()
      .execute(),
    before
  )
  assert.equal((await orch.call('GET', '/api/run-flow/list')).json.flows.length, spoofed.status === 201 ? 1 : 0)
})

test('every invalid transition is 409 with the current state; a stale revision or digest is refused', async () => {
  const orch = await flowServer()
  const a = await propose(orch)
  const start = await orch.call('POST', `/api/run-flow/${a.flowId}/start`)
  assert.equal(start.status, 409)
  assert.equal(start.json.state, 'AWAITING_APPROVAL')
  const stale = await orch.call('POST', `/api/run-flow/${a.flowId}/decision`, { decision: 'approve', revision: 2 })
  assert.equal(stale.status, 409)
  assert.match(stale.json.error, /revision 2 is stale/)
  const wrongDigest = await orch.call('POST', `/api/run-flow/${a.flowId}/decision`, { decision: 'approve', planDigest: '0'.repeat(64) })
  assert.equal(wrongDigest.status, 409)
  assert.equal((await orch.call('GET', `/api/run-flow/${a.flowId}`)).json.state, 'AWAITING_APPROVAL')

  const rejected = await orch.call('POST', `/api/run-flow/${a.flowId}/decision`, { decision: 'reject', reason: 'not now' })
  assert.equal(rejected.status, 200)
  assert.equal(rejected.json.state, 'CANCELLED')
  assert.equal(rejected.json.cancelReason, 'rejected')
  for (const [url, body] of [
    [`/api/run-flow/${a.flowId}/decision`, { decision: 'approve' }],
    [`/api/run-flow/${a.flowId}/start`, undefined],
    [`/api/run-flow/${a.flowId}/cancel`, {}]
  ] as const) {
    const answer = await orch.call('POST', url, body)
    assert.equal(answer.status, 409, `${url}: ${answer.body}`)
    assert.equal(answer.json.state, 'CANCELLED')
  }
  // The rejected plan's sprint is aborted, so `quartet run` cannot start it behind the flow's back.
  assert.equal((await orch.repositories.sprints.get(rejected.json.sprintId))!.status, 'ABORTED')

  const b = await propose(orch)
  await approve(orch, b.flowId)
  const second = await orch.call('POST', `/api/run-flow/${b.flowId}/decision`, { decision: 'reject' })
  assert.equal(second.status, 409)
  assert.equal(second.json.state, 'APPROVED')
  const cancelled = await orch.call('POST', `/api/run-flow/${b.flowId}/cancel`, { reason: 'changed my mind' })
  assert.equal(cancelled.status, 200)
  assert.equal(cancelled.json.context.state, 'CANCELLED')
  assert.equal((await orch.call('POST', `/api/run-flow/${b.flowId}/start`)).status, 409)
})

test('an approval binds the exact plan: a plan changed after the preview cannot be approved or started', async () => {
  const orch = await flowServer()
  const a = await propose(orch)
  const sprintId = (await orch.call('GET', `/api/run-flow/${a.flowId}`)).json.sprintId
  await orch.database.db
    .updateTable('orch_tasks' as never)
    .set({ description: 'Delete everything.' } as never)
    .where('sprint_id' as never, '=', sprintId as never)
    .execute()
  const answer = await orch.call('POST', `/api/run-flow/${a.flowId}/decision`, { decision: 'approve' })
  assert.equal(answer.status, 409)
  assert.match(answer.json.error, /no longer matches its digest/)
})

test('concurrency: of 10 racing decisions exactly one wins; of 10 racing starts one starts a job, the rest are duplicates', async () => {
  const orch = await flowServer({ agent: SLOW })
  const a = await propose(orch)
  const decisions = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      orch.call('POST', `/api/run-flow/${a.flowId}/decision`, { decision: i % 2 ? 'reject' : 'approve' })
    )
  )
  assert.equal(decisions.filter((d) => d.status === 200).length, 1, JSON.stringify(decisions.map((d) => d.status)))
  assert.ok(decisions.every((d) => d.status === 200 || d.status === 409))
  let flow = (await orch.call('GET', `/api/run-flow/${a.flowId}`)).json
  if (flow.state === 'CANCELLED') {
    const b = await propose(orch)
    await approve(orch, b.flowId)
    flow = (await orch.call('GET', `/api/run-flow/${b.flowId}`)).json
  }
  const starts = await Promise.all(Array.from({ length: 10 }, () => orch.call('POST', `/api/run-flow/${flow.flowId}/start`)))
  assert.ok(
    starts.every((s) => s.status === 202),
    JSON.stringify(starts.map((s) => [s.status, s.json]))
  )
  assert.equal(starts.filter((s) => s.json.duplicate === false).length, 1)
  assert.equal(new Set(starts.map((s) => s.json.attemptId)).size, 1)
  const jobs = await orch.database.db
    .selectFrom('orch_jobs' as never)
    .selectAll()
    .execute()
  assert.equal(jobs.length, 1)
  const events = await orch.database.db
    .selectFrom('orch_run_flow_events' as never)
    .select('type' as never)
    .where('flow_id' as never, '=', flow.flowId as never)
    .execute()
  assert.equal(events.filter((e) => (e as { type: string }).type === 'START_REQUESTED').length, 1)

  // Cancel stops the flow's workers.
  await eventually(async () => (await orch.call('GET', `/api/run-flow/${flow.flowId}`)).json.state === 'DETACHED_RUNNING', 20_000)
  const cancelled = await orch.call('POST', `/api/run-flow/${flow.flowId}/cancel`, { reason: 'stop' })
  assert.equal(cancelled.status, 200, cancelled.body)
  assert.match(cancelled.json.note, /stopped the flow's job/)
  const active = await orch.database.db
    .selectFrom('orch_jobs' as never)
    .selectAll()
    .where('active' as never, '=', 1 as never)
    .execute()
  assert.deepEqual(active, [])
  assert.equal((await orch.call('GET', `/api/run-flow/${flow.flowId}`)).json.state, 'CANCELLED')
})

async function restarted(orch: OrchestratorHarness): Promise<OrchestratorHarness> {
  // A new server over the same database and project: nothing of the old one's memory survives.
  const { app, release } = await buildService(orchestratorService, orch.config, orch.database)
  await orch.app.close()
  await app.ready()
  const token = orch.token
  const call: OrchestratorHarness['call'] = async (method, url, body, headers = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
    })
    return {
      status: response.statusCode,
      json: response.body ? JSON.parse(response.body) : undefined,
      body: response.body,
      headers: response.headers
    }
  }
  const next = {
    ...orch,
    app,
    call,
    token,
    listen: async () => {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const address = app.server.address()
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    }
  }
  // The harness closes the first app; this one is closed here.
  after(async () => {
    await app.close()
    await release()
  })
  return next
}

test('restart after each step: the flow is rebuilt from the database and continues to COMPLETED', async () => {
  let orch = await flowServer()
  const a = await propose(orch)
  orch = await restarted(orch)
  assert.equal((await orch.call('GET', `/api/run-flow/${a.flowId}`)).json.state, 'AWAITING_APPROVAL')
  assert.equal((await orch.call('GET', `/api/run-flow/${a.flowId}/preview`)).json.planDigest, a.planDigest)
  await approve(orch, a.flowId)
  orch = await restarted(orch)
  assert.equal((await orch.call('GET', `/api/run-flow/${a.flowId}`)).json.state, 'APPROVED')
  assert.equal((await orch.call('POST', `/api/run-flow/${a.flowId}/decision`, { decision: 'approve' })).status, 409)
  const started = await orch.call('POST', `/api/run-flow/${a.flowId}/start`)
  assert.equal(started.status, 202)
  orch = await restarted(orch)
  const again = await orch.call('POST', `/api/run-flow/${a.flowId}/start`)
  assert.equal(again.json.duplicate, true)
  await eventually(async () => (await orch.call('GET', `/api/run-flow/${a.flowId}`)).json.state === 'COMPLETED', 60_000, 'COMPLETED')
  orch = await restarted(orch)
  const list = await orch.call('GET', '/api/run-flow/list')
  assert.deepEqual(
    list.json.flows.map((f: { state: string }) => f.state),
    ['COMPLETED']
  )
  const base = await orch.listen()
  const replay = await readSse(
    `${base}/api/run-flow/${a.flowId}/events?after=0`,
    { authorization: `Bearer ${orch.token}` },
    (f) => f.length >= 7,
    5000
  )
  assert.equal(replay.frames.at(-1)?.event, 'RUN_COMPLETED')
})

test('a flow interrupted mid-start (no job was created) is FAILED once stale, never running for ever', async () => {
  const orch = await flowServer({ config: flowConfig() })
  const a = await propose(orch)
  await approve(orch, a.flowId)
  // What a server killed between START_REQUESTED and the job's creation leaves behind.
  await orch.database.db
    .updateTable('orch_run_flows' as never)
    .set({ state: 'STARTING', attempt_id: 'att-x', updated_at: new Date(Date.now() - 60_000).toISOString() } as never)
    .where('id' as never, '=', a.flowId as never)
    .execute()
  const flow = (await orch.call('GET', `/api/run-flow/${a.flowId}`)).json
  assert.equal(flow.state, 'FAILED')
  assert.match(flow.failureReason, /interrupted/)
})

test('the flow stream never sends another flow’s events; a bad id is 400 and a wrong query token 403', async () => {
  const orch = await flowServer()
  const a = await propose(orch)
  const b = await propose(orch, 'Another note')
  const base = await orch.listen()
  const stream = await readSse(`${base}/api/run-flow/${a.flowId}/events`, { authorization: `Bearer ${orch.token}` }, () => false, 1500)
  assert.equal(stream.status, 200)
  assert.ok(stream.frames.length === 3 && stream.frames.every((f) => f.data.flowId === a.flowId))
  assert.ok(b.flowId !== a.flowId)
  assert.equal(
    (await readSse(`${base}/api/run-flow/bad.id/events`, { authorization: `Bearer ${orch.token}` }, () => true, 2000)).status,
    400
  )
  assert.equal((await readSse(`${base}/api/run-flow/${a.flowId}/events?token=wrong`, {}, () => true, 2000)).status, 403)
})
