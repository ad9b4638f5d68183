import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from '../../../helpers/cli.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'
import { createApprovalsService } from '../../../../src/services/orchestrator/modules/approvals/approvals.service.js'
import { ANY_DECIDER, cliEnv, decide, decideAtTerminal, decider } from './helpers.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }
const approvalConfig = (extra: Record<string, unknown> = {}) => ({
  api_decide: true,
  default_expiry_seconds: 3600,
  expiry_action: 'deny',
  require_for_risk: ['high', 'critical'],
  ...extra
})

function start(approval: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  return startOrchestrator({ env, config: { agents: { sh: AGENT }, default_agent: 'sh', approval: approvalConfig(approval) } })
}

const rpc = (orch: OrchestratorHarness, method: string, params?: unknown) =>
  orch.call('POST', '/api/rpc', { id: 'r1', version: '1.0', method, ...(params !== undefined ? { params } : {}) })

async function park(orch: OrchestratorHarness, description = 'Write notes everywhere') {
  const parked = await orch.call('POST', '/api/process/submit', { description })
  assert.equal(parked.json.status, 'pending-approval', parked.body)
  return parked.json as { executionId: string; missionId: string; approvalId: string }
}

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

/** The execution row as stored: what the server wrote, without any read route computing it. */
async function storedExecution(orch: OrchestratorHarness, id: string) {
  return orch.database.db.selectFrom('orch_executions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

test(
  'a parked submission is an ordinary approval request: ' + 'listed by GET /api/approvals and the CLI, decided over HTTP it runs',
  async () => {
    const orch = await start()
    const parked = await park(orch, 'Write notes everywhere with token=abc123secretvalue')

    const overview = (await orch.call('GET', '/api/approvals')).json
    assert.deepEqual(
      overview.pending.map((e: any) => e.request.id),
      [parked.approvalId]
    )
    const entry = overview.pending[0]
    assert.deepEqual([entry.request.requester.kind, entry.request.scopeId, entry.request.risk], ['process', parked.executionId, 'critical'])
    assert.doesNotMatch(JSON.stringify(overview), /abc123secretvalue/)
    assert.equal((await orch.call('GET', `/api/approvals/${parked.approvalId}`)).json.request.maskedArgs.executionId, parked.executionId)

    const listed = await runCli(['approvals', 'list', '--json'], cliEnv(orch))
    assert.equal(listed.code, 0, listed.stderr)
    assert.deepEqual(
      JSON.parse(listed.stdout).map((e: any) => e.request.id),
      [parked.approvalId]
    )

    const allowed = await decide(orch, parked.approvalId, { decision: 'allow', reason: 'fine' })
    assert.equal(allowed.status, 200, allowed.body)
    // Settled inside the decision: the row moved on before the answer, without a status read.
    assert.notEqual((await storedExecution(orch, parked.executionId)).status, 'parked')
    const done = await finished(orch, parked.executionId)
    assert.equal(done.status, 'done', JSON.stringify(done))
    assert.equal((await orch.call('GET', `/api/missions/${parked.missionId}`)).json.status, 'completed')
    const rpcView = (await rpc(orch, 'approval.list', { scopeId: parked.executionId })).json.result.approvals
    assert.deepEqual(
      rpcView.map((a: any) => [a.id, a.category, a.decision.channel]),
      [[parked.approvalId, 'approved', 'api']]
    )
    // Each RPC entry also carries the request as GET /api/approvals serialises it (reference §5.3).
    const httpEntry = (await orch.call('GET', `/api/approvals/${parked.approvalId}`)).json
    assert.deepEqual(rpcView[0].request, httpEntry.request)
    const again = await rpc(orch, 'approval.decide', { requestId: parked.approvalId, decision: 'deny' })
    assert.deepEqual([again.json.error.code, again.json.error.data.category], ['CONFLICT', 'approved'])
  }
)

test('a decision at the terminal (another process) fails the parked submission at once', async () => {
  const orch = await start()
  const parked = await park(orch)
  const decided = await decideAtTerminal(orch, [parked.approvalId, 'deny', '--reason', 'not now'], parked.approvalId)
  assert.equal(decided.code, 0, decided.output)
  const row = await storedExecution(orch, parked.executionId)
  assert.equal(row.status, 'failed')
  assert.match(row.reason ?? '', /decided "deny"/)
})

test("two tenants never see or decide each other's requests (HTTP, RPC and the service)", async () => {
  const orch = await start()
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const acme = createApprovalsService({
    repositories: orch.repositories,
    projectId,
    dataDir: orch.config.dataDir,
    clock: () => new Date(),
    newId: () => 'apr_acme000000001',
    approvalConfig: () => approvalConfig() as never,
    policy: ANY_DECIDER,
    tenantId: 'acme'
  })
  const foreign = await acme.request({
    requesterKind: 'process',
    requesterId: 'process:eve',
    summary: 'acme work',
    scope: 'lifecycle',
    risk: 'critical',
    scopeId: 'proc-acme-aaaaaa',
    args: {}
  })
  const id = foreign.request.id
  const mine = await park(orch)

  const overview = (await orch.call('GET', '/api/approvals?tenant=acme&tenantId=acme')).json
  assert.deepEqual(
    Object.values(overview)
      .flat()
      .map((e: any) => e.request.id),
    [mine.approvalId]
  )
  for (const url of [`/api/approvals/${id}`, `/api/approvals/${id}?tenant=acme`, `/api/approvals/${id}/wait?timeout=0`]) {
    assert.equal((await orch.call('GET', url)).status, 404, url)
  }
  const httpDecision = await decide(orch, id, { decision: 'allow' })
  assert.equal(httpDecision.status, 404, httpDecision.body)
  assert.deepEqual((await rpc(orch, 'approval.list', { scopeId: 'proc-acme-aaaaaa' })).json.result.approvals, [])
  assert.deepEqual(
    (await rpc(orch, 'approval.list')).json.result.approvals.map((a: any) => a.id),
    [mine.approvalId]
  )
  assert.equal((await rpc(orch, 'approval.decide', { requestId: id, decision: 'allow' })).json.error.code, 'NOT_FOUND')
  assert.equal((await acme.get(id)).category, 'pending')

  // And the other way round: acme's scope does not reach the local tenant's request.
  assert.deepEqual(
    (await acme.list()).map((e) => e.request.id),
    [id]
  )
  await assert.rejects(acme.get(mine.approvalId), { code: 'ORCH_APPROVAL_NOT_FOUND' })
  await assert.rejects(acme.decide(decider('eve'), { id: mine.approvalId, decision: 'deny', channel: 'rpc' }), {
    code: 'ORCH_APPROVAL_NOT_FOUND'
  })
  assert.equal((await orch.call('GET', `/api/approvals/${mine.approvalId}`)).json.category, 'pending')
  assert.equal((await storedExecution(orch, mine.executionId)).status, 'parked')
})

test('the sweep expires a parked submission nobody reads: default deny fails it', async () => {
  const orch = await start({ default_expiry_seconds: 1 }, { ORCHESTRATOR_APPROVAL_SWEEP_MS: '200' })
  const parked = await park(orch)
  const row = await eventually(
    async () => {
      const stored = await storedExecution(orch, parked.executionId)
      return stored.status === 'parked' ? null : stored
    },
    10_000,
    'the sweep to settle the submission'
  )
  assert.deepEqual([row.status, row.reason], ['failed', `approval request ${parked.approvalId} expired undecided`])
  const approval = await orch.database.db
    .selectFrom('orch_approvals')
    .selectAll()
    .where('id', '=', parked.approvalId)
    .executeTakeFirstOrThrow()
  assert.deepEqual([approval.decision, approval.channel, approval.closure_reason], ['deny', 'ttl-expire', 'expired'])
})

test('the sweep applies expiry_action allow: the parked submission runs', async () => {
  const orch = await start({ default_expiry_seconds: 1, expiry_action: 'allow' }, { ORCHESTRATOR_APPROVAL_SWEEP_MS: '200' })
  const parked = await park(orch)
  await eventually(
    async () => (await storedExecution(orch, parked.executionId)).status === 'running' || null,
    10_000,
    'the sweep to start the submission'
  )
  const done = await finished(orch, parked.executionId)
  assert.equal(done.status, 'done', JSON.stringify(done))
})

test('20 concurrent decisions (HTTP and RPC) on one process approval: exactly one wins, the submission is settled once', async () => {
  const orch = await start()
  const parked = await park(orch)
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? decide(orch, parked.approvalId, { decision: i % 4 === 0 ? 'allow' : 'deny' }, `key-${i}`).then((a) => ({
            won: a.status === 200,
            lost: a.status === 409,
            body: a.body
          }))
        : rpc(orch, 'approval.decide', {
            requestId: parked.approvalId,
            decision: i % 4 === 1 ? 'allow' : 'deny',
            idempotencyKey: `key-${i}`
          }).then((a) => ({ won: a.json.result?.ok === true, lost: a.json.error?.code === 'CONFLICT', body: a.body }))
    )
  )
  assert.equal(answers.filter((a) => a.won).length, 1, JSON.stringify(answers))
  assert.equal(answers.filter((a) => a.lost).length, 19, JSON.stringify(answers))
  const approval = (await orch.call('GET', `/api/approvals/${parked.approvalId}`)).json
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const jobs = await orch.database.db.selectFrom('orch_jobs').selectAll().where('project_id', '=', projectId).execute()
  if (approval.decision.decision === 'allow') {
    assert.equal(jobs.length, 1)
    assert.equal((await finished(orch, parked.executionId)).status, 'done')
  } else {
    assert.equal(jobs.length, 0)
    assert.equal((await storedExecution(orch, parked.executionId)).status, 'failed')
  }
})
