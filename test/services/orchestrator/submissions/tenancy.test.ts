import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

// Rows of another tenant are inserted through the repositories, as a later identity feature would.
test("another tenant's executions, missions and approvals are invisible: 404 and absent from lists", async () => {
  const orch = await startOrchestrator({ config: { approval: { api_decide: true } } })
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const repos = orch.repositories
  await repos.executions.create({
    id: 'proc-foreign-aaaaaa',
    projectId,
    tenantId: 'acme',
    actor: 'eve',
    origin: 'api',
    kind: 'task',
    title: 'foreign',
    request: { description: 'foreign', kind: 'task', actor: 'eve', tenant: 'acme', origin: 'api' },
    effectClass: 'pure',
    status: 'failed',
    reason: 'x'
  })
  await repos.missions.create({
    id: 'mis-foreign-aaaaaa',
    projectId,
    tenantId: 'acme',
    title: 'foreign',
    source: 'submission',
    kind: 'task',
    executionId: 'proc-foreign-aaaaaa'
  })
  await repos.approvals.create({
    id: 'apr-foreign-aaaaaa',
    projectId,
    tenantId: 'acme',
    scopeId: 'proc-foreign-aaaaaa',
    taskId: null,
    requesterKind: 'process',
    requesterId: 'process:eve',
    summary: 'foreign',
    scope: 'lifecycle',
    risk: 'high',
    policy: 'require-approval',
    defaultAction: 'deny',
    toolName: null,
    maskedArgs: '{}',
    rawArgsRef: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2999-01-01T00:00:00.000Z'
  })

  const mine = await orch.call('POST', '/api/process/submit', {
    description: 'mine',
    capabilityTarget: 'erp.read',
    scopeDir: 'docs/audits'
  })
  assert.equal(mine.status, 202, mine.body)

  for (const url of [
    '/api/process/status/proc-foreign-aaaaaa',
    '/api/process/result/proc-foreign-aaaaaa',
    '/api/missions/mis-foreign-aaaaaa',
    '/api/v1/missions/mis-foreign-aaaaaa'
  ]) {
    const answer = await orch.call('GET', url)
    assert.equal(answer.status, 404, `${url}: ${answer.body}`)
  }
  // A tenant cannot be chosen by the URL.
  assert.equal((await orch.call('GET', '/api/missions/mis-foreign-aaaaaa?tenant=acme&tenantId=acme')).status, 404)
  const list = await orch.call('GET', '/api/missions?tenant=acme')
  assert.deepEqual(
    list.json.missions.map((m: { id: string }) => m.id),
    [mine.json.missionId]
  )

  const rpc = (method: string, params: unknown) => orch.call('POST', '/api/rpc', { id: 't', version: '1.0', method, params })
  assert.deepEqual((await rpc('approval.list', {})).json.result.approvals, [])
  assert.deepEqual((await rpc('approval.list', { scopeId: 'proc-foreign-aaaaaa' })).json.result.approvals, [])
  const decide = await rpc('approval.decide', { requestId: 'apr-foreign-aaaaaa', decision: 'allow' })
  assert.equal(decide.json.error.code, 'NOT_FOUND')
  const row = (await orch.database.db
    .selectFrom('orch_approvals' as never)
    .selectAll()
    .where('id' as never, '=', 'apr-foreign-aaaaaa' as never)
    .executeTakeFirstOrThrow()) as { decision: string | null }
  assert.equal(row.decision, null)
})
