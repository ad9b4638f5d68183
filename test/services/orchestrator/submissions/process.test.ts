import assert from 'node:assert/strict'
import { test } from 'node:test'
import { snapshotTables } from '../../../helpers/db.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }
// Control mutations on: these submissions are allowed to start runs over the API.
const CONFIG = { agents: { sh: AGENT }, default_agent: 'sh', approval: { api_decide: true }, api: { control_mutations: true } }

async function finished(orch: OrchestratorHarness, id: string) {
  return eventually(
    async () => {
      const answer = await orch.call('GET', `/api/process/status/${id}`)
      return answer.json.status === 'done' || answer.json.status === 'failed' ? answer.json : null
    },
    60_000,
    `execution ${id} to finish`
  )
}

const rpc = (orch: OrchestratorHarness, method: string, params?: unknown) =>
  orch.call('POST', '/api/rpc', { id: 'r1', version: '1.0', method, ...(params !== undefined ? { params } : {}) })

test('a reversible task runs now as a one-task sprint on the default agent; identity is stamped by the server', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const submitted = await orch.call('POST', '/api/process/submit', {
    description: 'Write notes\nabout the parser',
    scopeDir: 'src',
    actor: 'mallory',
    tenant: 'other',
    origin: 'cli'
  })
  assert.equal(submitted.status, 202, submitted.body)
  assert.equal(submitted.json.status, 'running')
  assert.equal(submitted.json.effectClass, 'reversible')
  assert.match(submitted.json.executionId, /^proc-[0-9a-z]+-[0-9a-z]{6}$/)
  const row = (await orch.database.db
    .selectFrom('orch_executions' as never)
    .selectAll()
    .executeTakeFirstOrThrow()) as Record<string, string>
  assert.deepEqual([row.actor, row.tenant_id, row.origin], ['api-static', 'local', 'api'])

  const done = await finished(orch, submitted.json.executionId)
  assert.equal(done.status, 'done', JSON.stringify(done))
  assert.deepEqual(done.lastResult, { ok: true, settleDetail: 'done' })
  assert.deepEqual(done.progress, { done: 1, total: 1 })
  assert.equal(done.title, 'Write notes')
  const tasks = await orch.repositories.tasks.listBySprint(done.sprintId)
  assert.equal(tasks.length, 1)
  assert.match(tasks[0]!.description, /about the parser/)
  assert.equal(orch.project.git('branch', '--list', `quartet/${done.sprintId}/*`).trim() !== '', true)
  const result = await orch.call('GET', `/api/v1/process/result/${submitted.json.executionId}`)
  assert.deepEqual(result.json, done)

  const mission = await orch.call('GET', `/api/missions/${submitted.json.missionId}`)
  assert.equal(mission.status, 200, mission.body)
  assert.equal(mission.json.status, 'completed')
  assert.deepEqual(
    mission.json.items.map((i: { kind: string; status: string }) => [i.kind, i.status]),
    [['task', 'done']]
  )
  assert.deepEqual(mission.json.progress, { done: 1, total: 1 })
  assert.deepEqual(
    (await orch.call('GET', '/api/missions')).json.missions.map((m: { id: string }) => m.id),
    [submitted.json.missionId]
  )
})

test('a process runs its steps as a sprint of dependent tasks', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const submitted = await orch.call('POST', '/api/process/submit', {
    kind: 'process',
    description: 'Notes pipeline',
    steps: ['first step', 'second step\nDepends on: nothing'],
    scopeDir: 'notes'
  })
  assert.equal(submitted.status, 202, submitted.body)
  const done = await finished(orch, submitted.json.executionId)
  assert.equal(done.status, 'done', JSON.stringify(done))
  const tasks = await orch.repositories.tasks.listBySprint(done.sprintId)
  assert.deepEqual(
    tasks.map((t) => [t.key, t.dependencies]),
    [
      ['1', []],
      ['2', ['1']]
    ]
  )
  // A body line that looks like a task option stays text.
  assert.match(tasks[1]!.description, /Depends on: nothing/)
  assert.equal((await orch.call('GET', `/api/missions/${submitted.json.missionId}`)).json.renderAs, 'checklist')
})

test('a run already active refuses a run-now submission with 409 and writes nothing', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { ...CONFIG, agents: { sh: { kind: 'command', argv: ['/bin/sh', '-c', 'sleep 30'] } } }
  })
  const first = await orch.call('POST', '/api/process/submit', { description: 'slow', scopeDir: 'src' })
  assert.equal(first.json.status, 'running', first.body)
  const before = await snapshotTables(orch.database, 'orch_')
  const busy = await orch.call('POST', '/api/process/submit', { description: 'another', scopeDir: 'src' })
  assert.equal(busy.status, 409, busy.body)
  assert.match(busy.json.error, /job \d+ .* is running/)
  assert.equal(await snapshotTables(orch.database, 'orch_'), before)
  await eventually(
    async () => (await rpc(orch, 'run.status', { runId: String(first.json.jobId) })).json.result.state === 'running',
    20_000,
    'the job to run'
  )
  assert.equal((await orch.call('POST', '/api/kill/all')).status, 200)
  const failed = await finished(orch, first.json.executionId)
  assert.equal(failed.status, 'failed')
  assert.match(failed.lastResult.reason, /job killed/)
  // The execution failed; its mission was stopped by a kill, so it is cancelled.
  assert.equal((await orch.call('GET', `/api/missions/${first.json.missionId}`)).json.status, 'cancelled')
})

test('unbounded work parks behind a real approval request; allow starts it, deny fails it', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const parked = await orch.call('POST', '/api/process/submit', { description: 'Write notes everywhere' })
  assert.equal(parked.status, 202, parked.body)
  assert.equal(parked.json.status, 'pending-approval')
  assert.equal(parked.json.effectClass, 'critical-irreversible')
  assert.match(parked.json.reason, /no scopeDir/)
  assert.equal((await orch.repositories.sprints.list(await orch.repositories.projects.ensure(orch.project.root))).length, 0)
  const status = await orch.call('GET', `/api/process/status/${parked.json.executionId}`)
  assert.equal(status.json.status, 'parked')
  assert.equal((await orch.call('GET', `/api/missions/${parked.json.missionId}`)).json.status, 'pending')

  const listed = await rpc(orch, 'approval.list', { scopeId: parked.json.executionId })
  assert.equal(listed.json.result.approvals.length, 1)
  const approval = listed.json.result.approvals[0]
  assert.deepEqual([approval.id, approval.category, approval.risk], [parked.json.approvalId, 'pending', 'critical'])

  const allowed = await rpc(orch, 'approval.decide', {
    requestId: approval.id,
    decision: 'allow',
    decidedBy: 'someone-else',
    idempotencyKey: 'k1'
  })
  assert.deepEqual(allowed.json.result, { ok: true, decision: 'allow', idempotent: false })
  const again = await rpc(orch, 'approval.decide', { requestId: approval.id, decision: 'allow', idempotencyKey: 'k1' })
  assert.deepEqual(again.json.result, { ok: true, decision: 'allow', idempotent: true })
  const decided = (await rpc(orch, 'approval.list')).json.result.approvals[0]
  assert.match(decided.decision.decidedBy, /^tok:[0-9a-f]{12}$/)
  const done = await finished(orch, parked.json.executionId)
  assert.equal(done.status, 'done', JSON.stringify(done))

  const secret = await orch.call('POST', '/api/process/submit', { description: 'send email with token=abc123secret', scopeDir: 'src' })
  assert.equal(secret.json.status, 'pending-approval')
  const masked = (await rpc(orch, 'approval.list', { scopeId: secret.json.executionId })).json.result.approvals[0]
  assert.doesNotMatch(JSON.stringify(masked), /abc123secret/)
  assert.equal((await rpc(orch, 'approval.decide', { requestId: masked.id, decision: 'deny', reason: 'no mail' })).json.result.ok, true)
  const denied = await orch.call('GET', `/api/process/status/${secret.json.executionId}`)
  assert.equal(denied.json.status, 'failed')
  assert.match(denied.json.lastResult.reason, /decided "deny"/)
})

test('config policy approval-required parks even pure work; a capability fails honestly when allowed', async () => {
  const orch = await startOrchestrator({ config: { ...CONFIG, process: { policy: 'approval-required' } } })
  const parked = await orch.call('POST', '/api/process/submit', { description: 'audit', scopeDir: 'docs/audits' })
  assert.equal(parked.json.status, 'pending-approval', parked.body)
  assert.equal(parked.json.effectClass, 'pure')
  const capability = await orch.call('POST', '/api/process/submit', {
    description: 'read orders',
    capabilityTarget: 'erp.read',
    scopeDir: 'docs/audits'
  })
  assert.equal(capability.json.status, 'pending-approval')
  await rpc(orch, 'approval.decide', { requestId: capability.json.approvalId, decision: 'allow' })
  const failed = await orch.call('GET', `/api/process/status/${capability.json.executionId}`)
  assert.deepEqual(
    [failed.json.kind, failed.json.status, failed.json.lastResult.reason],
    ['capability', 'failed', 'no connector for capability erp.read']
  )
})

test('a capability under the default policy fails at once: no connector exists', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const answer = await orch.call('POST', '/api/process/submit', {
    description: 'read orders',
    capabilityTarget: 'erp.read',
    scopeDir: 'docs/audits/erp'
  })
  assert.equal(answer.status, 202, answer.body)
  assert.deepEqual([answer.json.status, answer.json.reason], ['failed', 'no connector for capability erp.read'])
  const mission = await orch.call('GET', `/api/missions/${answer.json.missionId}`)
  assert.deepEqual([mission.json.status, mission.json.items[0].renderAs, mission.json.lastResult.ok], ['failed', 'action', false])
})

test("capabilityTarget as an object {capability, connector} (as the original's clients send it) parks for approval", async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const answer = await orch.call('POST', '/api/process/submit', {
    description: 'Read the open invoices',
    capabilityTarget: { capability: 'erp.read', connector: 'sap' }
  })
  assert.equal(answer.status, 202, answer.body)
  assert.equal(answer.json.status, 'pending-approval')
  const request = (await rpc(orch, 'approval.list', { scopeId: answer.json.executionId })).json.result.approvals[0]
  assert.deepEqual(request.maskedArgs.capabilityTarget, { capability: 'erp.read', connector: 'sap' })
  await rpc(orch, 'approval.decide', { requestId: answer.json.approvalId, decision: 'allow' })
  const failed = await orch.call('GET', `/api/process/status/${answer.json.executionId}`)
  assert.deepEqual(
    [failed.json.kind, failed.json.status, failed.json.lastResult.reason],
    ['capability', 'failed', 'no connector for capability erp.read (connector sap is not configured)']
  )
})

test('invalid submissions answer 400 and write nothing', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const before = await snapshotTables(orch.database, 'orch_')
  for (const body of [
    {},
    { description: '' },
    { description: '   ' },
    { description: 'x', kind: 'process' },
    { description: 'x', kind: 'process', steps: [] },
    { description: 'x', kind: 'job' },
    { description: 'x', processRef: 'p.json' },
    { description: 'x', scopeDir: '../outside' },
    { description: 'x', scopeDir: '/etc' },
    { description: 'x', capabilityTarget: {} },
    { description: 'x', capabilityTarget: { capability: '  ' } },
    { description: 'x', capabilityTarget: ' ' },
    { description: 'x', capabilityTarget: ['erp.read'] }
  ]) {
    const answer = await orch.call('POST', '/api/process/submit', body)
    assert.equal(answer.status, 400, `${JSON.stringify(body)} → ${answer.body}`)
    assert.equal(typeof answer.json.error, 'string')
  }
  assert.equal(await snapshotTables(orch.database, 'orch_'), before)
  assert.equal((await orch.call('GET', '/api/process/status/proc-nope-000000')).status, 404)
  assert.equal((await orch.call('GET', '/api/missions/nope')).json.error, 'not found')
  assert.deepEqual((await orch.call('GET', '/api/missions')).json, { missions: [], nextCursor: null })
})

test('8 concurrent run-now submissions start exactly one job; the others are refused or fail with the reason', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) => orch.call('POST', '/api/process/submit', { description: `notes ${i}`, scopeDir: 'src' }))
  )
  const running = answers.filter((a) => a.status === 202 && a.json.status === 'running')
  assert.equal(running.length, 1, JSON.stringify(answers.map((a) => [a.status, a.json])))
  for (const other of answers.filter((a) => a !== running[0])) {
    assert.ok(
      other.status === 409 ||
        (other.status === 202 && other.json.status === 'failed' && /another run started first/.test(other.json.reason)),
      other.body
    )
  }
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const jobs = await orch.database.db.selectFrom('orch_jobs').selectAll().where('project_id', '=', projectId).execute()
  assert.equal(jobs.length, 1)
  assert.equal((await finished(orch, running[0]!.json.executionId)).status, 'done')
})

test('while control mutations are off, a submission that would start a run is parked for a human; allowing it starts the run', async () => {
  const orch = await startOrchestrator({ config: { ...CONFIG, api: { control_mutations: false } } })
  const submitted = await orch.call('POST', '/api/process/submit', { description: 'Write notes', scopeDir: 'src' })
  assert.equal(submitted.status, 202, submitted.body)
  assert.deepEqual(
    [submitted.json.status, submitted.json.effectClass],
    ['pending-approval', 'reversible'],
    'a reversible submission would run at once with the switch on'
  )
  assert.match(submitted.json.reason, /control mutations are off/)
  assert.equal((await orch.repositories.jobs.active(await orch.repositories.projects.ensure(orch.project.root))) ?? null, null)
  const allowed = await orch.call(
    'POST',
    `/api/approvals/${submitted.json.approvalId}/decision`,
    { decision: 'allow' },
    { 'idempotency-key': 'k-allow' }
  )
  assert.equal(allowed.status, 200, allowed.body)
  const done = await finished(orch, submitted.json.executionId)
  assert.equal(done.status, 'done', JSON.stringify(done))
})
