import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { plannedTaskOf, processesOf } from '../../../../src/services/orchestrator/state/domain.js'
import { pidsOf, planOf, shellTask } from './helpers.js'

let database: TestDatabase
let repos: OrchestratorRepositories
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
})
after(() => database.close())

test('sprints: createFromPlan numbers sprints (unique across projects), stores tasks in plan order', async () => {
  const projectId = await repos.projects.ensure('/tmp/repo-sprints')
  const plan = planOf([
    shellTask('1', 'true', { files: ['a.ts'], check: ['npm', 'test'], agent: 'x' }),
    shellTask('2', 'false', { dependencies: ['1'], priority: 'HIGH', expectChange: true })
  ])
  const first = await repos.sprints.createFromPlan(projectId, plan, { title: 'one', directivesDigest: 'abc' })
  const second = await repos.sprints.createFromPlan(projectId, plan, { title: 'two', directivesDigest: null })
  assert.equal(first.sprint.id, 's1')
  assert.equal(second.sprint.id, 's2')
  assert.deepEqual(
    first.tasks.map((t) => [t.id, t.position, t.status]),
    [
      ['s1-1', 0, 'PENDING'],
      ['s1-2', 1, 'PENDING']
    ]
  )
  assert.deepEqual(plannedTaskOf(first.tasks[0]!), plan.tasks[0])
  assert.deepEqual(plannedTaskOf(first.tasks[1]!), plan.tasks[1])
  assert.equal((await repos.sprints.latest(projectId))?.id, 's2')
  assert.deepEqual(
    (await repos.sprints.list(projectId)).map((s) => s.id),
    ['s2', 's1']
  )
  const concurrent = await Promise.all(
    Array.from({ length: 5 }, () => repos.sprints.createFromPlan(projectId, plan, { title: 'c', directivesDigest: null }))
  )
  assert.deepEqual(concurrent.map((c) => c.sprint.number).sort(), [3, 4, 5, 6, 7])
  // A failing task insert (duplicate key) rolls the sprint back too.
  await assert.rejects(
    repos.sprints.createFromPlan(projectId, planOf([shellTask('9', 'true'), shellTask('9', 'true')]), {
      title: 'bad',
      directivesDigest: null
    })
  )
  assert.equal((await repos.sprints.latest(projectId))?.number, 7)
})

test("sprints: createFromPlan stores a plan larger than one statement's parameter limit, in order", async () => {
  const projectId = await repos.projects.ensure('/tmp/repo-sprints-large')
  const plan = planOf(Array.from({ length: 3000 }, (_, i) => shellTask(String(i + 1), 'true')))
  const { sprint, tasks } = await repos.sprints.createFromPlan(projectId, plan, { title: 'large', directivesDigest: null })
  assert.equal(tasks.length, 3000)
  assert.deepEqual(
    tasks.map((t) => t.position),
    plan.tasks.map((_, i) => i)
  )
  assert.equal(tasks[2999]!.id, `${sprint.id}-3000`)
})

test('tasks: of two racing guarded transitions exactly one wins', async () => {
  const projectId = await repos.projects.ensure('/tmp/repo-tasks')
  const { tasks } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true')]), { title: 't', directivesDigest: null })
  const id = tasks[0]!.id
  const wins = await Promise.all(Array.from({ length: 10 }, () => repos.tasks.transition(id, 'CLAIMED', { from: ['PENDING'] })))
  assert.equal(wins.filter(Boolean).length, 1)
  // A change the lifecycle table does not allow is a programming error, refused before any SQL runs.
  await assert.rejects(repos.tasks.transition(id, 'EXECUTING', { from: ['PENDING'] }), { name: 'IllegalTransitionError' })
  assert.equal(await repos.tasks.transition(id, 'CLAIMED', { from: ['PENDING'] }), false)
  assert.equal(await repos.tasks.transition(id, 'EXECUTING'), true)
  assert.equal(await repos.tasks.transition(id, 'DONE', { reason: 'ok', filesChanged: ['x'], commitSha: 'abc' }), true)
  const row = await repos.tasks.get(id)
  assert.deepEqual([row?.status, row?.reason, row?.filesChanged, row?.commitSha], ['DONE', 'ok', ['x'], 'abc'])
  assert.deepEqual(await repos.tasks.countByStatus(tasks[0]!.sprintId), { DONE: 1 })
})

test('jobs: 20 concurrent startJob create exactly one active job; finish frees the project', async () => {
  const projectId = await repos.projects.ensure('/tmp/repo-jobs')
  const { sprint } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true')]), { title: 'j', directivesDigest: null })
  const results = await Promise.all(Array.from({ length: 20 }, () => repos.jobs.startJob(projectId, sprint.id, { resume: false })))
  const created = results.filter((r) => r.created)
  assert.equal(created.length, 1)
  assert.equal(new Set(results.map((r) => r.job.id)).size, 1)
  const job = created[0]!.job
  assert.equal(await repos.jobs.markRunning(job.id, 4242, 'host-a'), true)
  assert.equal(await repos.jobs.markRunning(job.id, 4243, 'host-a'), false)
  assert.equal(await repos.jobs.heartbeat(job.id), true)
  assert.equal(await repos.jobs.finish(job.id, 'completed', { result: { done: 1 } }), true)
  assert.equal(await repos.jobs.finish(job.id, 'failed'), false)
  assert.equal(await repos.jobs.heartbeat(job.id), false)
  const ended = await repos.jobs.get(job.id)
  assert.deepEqual([ended?.status, ended?.active, ended?.pid, ended?.result], ['completed', false, 4242, { done: 1 }])
  const next = await repos.jobs.startJob(projectId, sprint.id, { resume: true })
  assert.equal(next.created, true)
  assert.equal(next.job.resume, true)
})

test('attempts, heartbeats and usage: pids accumulate, sequence rises, sums per agent and sprint in micro-USD', async () => {
  const projectId = await repos.projects.ensure('/tmp/repo-usage')
  const { sprint, tasks } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true'), shellTask('2', 'true')]), {
    title: 'u',
    directivesDigest: null
  })
  const a1 = await repos.attempts.start(tasks[0]!.id, 1, 1, 'alpha')
  const a2 = await repos.attempts.start(tasks[1]!.id, 1, 1, 'beta')
  await Promise.all([101, 102, 103, 101].map((pid) => repos.attempts.addPid(a1.id, pid, pid * 10)))
  assert.deepEqual(pidsOf((await repos.attempts.get(a1.id))!).sort(), [101, 102, 103])
  assert.deepEqual(
    (await repos.attempts.get(a1.id))!.processes.sort((a, b) => a.pid - b.pid),
    [
      { pid: 101, startTicks: 1010 },
      { pid: 102, startTicks: 1020 },
      { pid: 103, startTicks: 1030 }
    ]
  )
  assert.deepEqual(processesOf('[7, {"pid": 8, "startTicks": 80}]'), [
    { pid: 7, startTicks: null },
    { pid: 8, startTicks: 80 }
  ])
  await repos.attempts.addUsage(a1.id, { inputTokens: 10, outputTokens: 5, costUsd: 0.1 })
  await repos.attempts.addUsage(a1.id, { inputTokens: 1, outputTokens: 1, costUsd: 0.2, model: 'm1' })
  await repos.attempts.addUsage(a2.id, { inputTokens: 7, outputTokens: 3, costUsd: null })
  assert.deepEqual(await repos.attempts.usageForSprint(sprint.id), { inputTokens: 18, outputTokens: 9, costMicroUsd: 300000, attempts: 2 })
  assert.deepEqual(await repos.attempts.usageByAgent(sprint.id), [
    { agent: 'alpha', inputTokens: 11, outputTokens: 6, costMicroUsd: 300000, attempts: 1 },
    { agent: 'beta', inputTokens: 7, outputTokens: 3, costMicroUsd: 0, attempts: 1 }
  ])
  assert.equal((await repos.attempts.get(a2.id))?.costMicroUsd, null)
  assert.deepEqual(await repos.sprints.addUsage(sprint.id, 25, 300000), { tokensUsed: 25, costMicroUsd: 300000 })
  assert.deepEqual(
    (await repos.attempts.listRunning({ jobId: 1 })).map((a) => a.id),
    [a1.id, a2.id]
  )
  assert.equal(await repos.attempts.finish(a1.id, { status: 'DONE', exitCode: 0, reason: 'ok', transient: false, agentMs: 12 }), true)
  assert.equal(await repos.attempts.finish(a1.id, { status: 'NO_GO', exitCode: 1, reason: 'late', transient: false, agentMs: 12 }), false)
  assert.deepEqual(
    (await repos.attempts.listRunning({ jobId: 1 })).map((a) => a.id),
    [a2.id]
  )

  const beats = []
  for (let i = 0; i < 3; i++)
    beats.push(
      await repos.heartbeats.upsert(tasks[0]!.id, { workerId: 'w1', status: 'EXECUTING', currentAction: `step ${i}`, filesChangedCount: i })
    )
  assert.deepEqual(
    beats.map((b) => b.sequence),
    [1, 2, 3]
  )
  assert.equal((await repos.heartbeats.get(tasks[0]!.id))?.currentAction, 'step 2')
  assert.equal((await repos.heartbeats.listForSprint(sprint.id)).length, 1)
})
