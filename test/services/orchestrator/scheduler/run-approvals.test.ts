/**
 * engine/run-approvals.ts over the real repositories (SQLite, or PostgreSQL with DATABASE_URL): the
 * conditional status changes of a task whose agent asks a human while it runs, written by what would
 * be two processes (the server records and decides, the job ends the agent).
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createRunApprovals, withRefusals } from '../../../../src/services/orchestrator/engine/run-approvals.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { Approval } from '../../../../src/services/orchestrator/state/approvals.domain.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { planOf, shellTask } from './helpers.js'

let database: TestDatabase
let repos: OrchestratorRepositories
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
})
after(() => database.close())

let projects = 0
let ids = 0

/** A project with one sprint whose task is executing (its agent runs). */
async function executingTask() {
  const projectId = await repos.projects.ensure(`/tmp/run-approvals-${++projects}`)
  const { tasks } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true')]), { title: 't', directivesDigest: null })
  const task = tasks[0]!
  assert.ok(await repos.tasks.transition(task.id, 'CLAIMED'))
  assert.ok(await repos.tasks.transition(task.id, 'EXECUTING', { from: ['CLAIMED'] }))
  const asked = createRunApprovals({ repositories: repos, projectId, clock: () => new Date() })
  return { projectId, task, asked }
}

function request(projectId: number, taskId: string, requesterKind: 'agent' | 'engine' = 'agent', summary = 'Bash: make release') {
  const now = new Date()
  return repos.approvals.create({
    id: `apr_ra${++ids}`,
    projectId,
    tenantId: 'local',
    scopeId: null,
    taskId,
    requesterKind,
    requesterId: `${requesterKind}:test`,
    summary,
    scope: 'shell-exec',
    risk: 'medium',
    policy: 'require-approval',
    defaultAction: 'deny',
    toolName: 'Bash',
    maskedArgs: {},
    rawArgsRef: null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + 3_600_000).toISOString()
  })
}

async function decide(approval: Approval, decision: 'allow' | 'deny', reason = '') {
  const at = new Date().toISOString()
  const write = { decision, decidedBy: 'cli:ana', channel: 'cli', decidedAt: at, reason, closureReason: null }
  return repos.approvals.decide(approval.id, { ...write, idempotencyKey: null, decisionDigest: null }, { now: at, allowExpired: false })
}

const statusOf = async (id: string) => (await repos.tasks.get(id))?.status

test('a task waits while any request of its agent is open, and runs on once the last one is closed', async () => {
  const { projectId, task, asked } = await executingTask()
  const first = await request(projectId, task.id)
  const second = await request(projectId, task.id, 'agent', 'Bash: make deploy')
  await asked.requested(first)
  assert.equal(await statusOf(task.id), 'AWAITING_APPROVAL')
  await asked.requested(second)
  assert.ok(await decide(first, 'allow'))
  await asked.closed(first)
  assert.equal(await statusOf(task.id), 'AWAITING_APPROVAL', 'the second request is still open')
  assert.ok(await decide(second, 'deny', 'no'))
  await asked.closed(second)
  assert.equal(await statusOf(task.id), 'EXECUTING')
  const events = (await repos.events.readAfter(projectId, 0, 100)).map((e) => [
    e.type,
    (e.data as any).outcome ?? null,
    (e.data as any).status ?? null
  ])
  assert.deepEqual(events, [
    ['task_awaiting_approval', null, null],
    ['task_awaiting_approval', null, null],
    ['task_approval_closed', 'approved', 'AWAITING_APPROVAL'],
    ['task_approval_closed', 'denied', 'EXECUTING']
  ])
  const refusals = await asked.refusals(task.id, first.createdAt)
  assert.deepEqual(refusals, [`a human (cli:ana) denied Bash: make deploy (${second.id}: no)`])
  assert.equal(
    withRefusals('agent exited 0 but changed no files\nlast line', refusals),
    `agent exited 0 but changed no files; ${refusals[0]}\nlast line`
  )
})

test("the risk gate's waiting task is never moved by the closure of an agent's request", async () => {
  const projectId = await repos.projects.ensure(`/tmp/run-approvals-${++projects}`)
  const { tasks } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true')]), { title: 't', directivesDigest: null })
  const task = tasks[0]!
  assert.ok(await repos.tasks.transition(task.id, 'AWAITING_APPROVAL', { from: ['PENDING'] }))
  await request(projectId, task.id, 'engine', 'Run task')
  const stray = await request(projectId, task.id)
  const asked = createRunApprovals({ repositories: repos, projectId, clock: () => new Date() })
  assert.ok(await decide(stray, 'allow'))
  await asked.closed(stray)
  assert.equal(await statusOf(task.id), 'AWAITING_APPROVAL')
})

test('closures racing new requests: the task is EXECUTING exactly when none of its requests is open', async () => {
  for (let round = 0; round < 5; round++) {
    const { projectId, task, asked } = await executingTask()
    const open = await Promise.all(Array.from({ length: 6 }, () => request(projectId, task.id)))
    await Promise.all(open.map((a) => asked.requested(a)))
    assert.equal(await statusOf(task.id), 'AWAITING_APPROVAL')
    // All but one close while one more request arrives: it must keep the task waiting, whatever the order.
    const late = request(projectId, task.id).then((a) => asked.requested(a).then(() => a))
    await Promise.all(
      open.map(async (a, i) => {
        if (await decide(a, i % 2 ? 'allow' : 'deny')) await asked.closed(a)
      })
    )
    const last = await late
    assert.equal(await statusOf(task.id), 'AWAITING_APPROVAL', `round ${round}: ${last.id} is open`)
    await asked.withdraw(task.id, "the agent's attempt 1 ended before a decision")
    assert.equal(await statusOf(task.id), 'EXECUTING')
    const closed = await repos.approvals.get(projectId, 'local', last.id)
    assert.deepEqual([closed?.decision, closed?.channel, closed?.decidedBy], ['deny', 'withdrawn', 'system:engine'])
  }
})

test('a request recorded after its task ended is closed at once; a kill racing a decision leaves the task ended', async () => {
  const { projectId, task, asked } = await executingTask()
  assert.ok(await repos.tasks.transition(task.id, 'NO_GO', { reason: 'agent exited 1' }))
  const late = await request(projectId, task.id)
  await asked.requested(late)
  assert.equal((await repos.approvals.get(projectId, 'local', late.id))?.channel, 'withdrawn')
  assert.equal(await statusOf(task.id), 'NO_GO')

  const other = await executingTask()
  const waiting = await request(other.projectId, other.task.id)
  await other.asked.requested(waiting)
  // The kill (CANCELLED from any active status) and the human's allow land together.
  await Promise.all([
    repos.tasks
      .transition(other.task.id, 'CANCELLED', { reason: 'killed by user' })
      .then(() => other.asked.withdraw(other.task.id, 'killed by user')),
    decide(waiting, 'allow').then(async (won) => {
      if (won) await other.asked.closed(waiting)
    })
  ])
  assert.equal(await statusOf(other.task.id), 'CANCELLED')
  assert.notEqual((await repos.approvals.get(other.projectId, 'local', waiting.id))?.decision, null)
})
