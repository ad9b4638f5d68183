import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { openDatabase } from '../../../../src/core/db/database.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'
import { seedSprint } from './seed.js'

/** A second handle on the server's database, as the detached job process opens it (its own connection). */
async function otherConnection(
  orch: OrchestratorHarness,
  t: { after(fn: () => Promise<void>): void },
  clock: () => Date = () => new Date()
) {
  const database = await openDatabase({
    url: orch.config.databaseUrl,
    sqlitePath: path.join(orch.config.dataDir, 'quartet.db'),
    poolSize: 1
  })
  t.after(() => database.close())
  return createOrchestratorRepositories(database.db as OrchestratorDb, clock)
}

const statusOf = async (orch: OrchestratorHarness) => (await orch.call('GET', '/api/status')).json
const taskStatuses = async (orch: OrchestratorHarness) =>
  ((await orch.call('GET', '/api/tasks')).json as { id: string; status: string }[]).map((task) => [task.id, task.status])

test('the cached read views follow every write made through another connection, with or without an event', async (t) => {
  const orch = await startOrchestrator()
  const { projectId, sprint, tasks } = await seedSprint(orch, ['one', 'two'])
  const [t1, t2] = tasks.map((task) => task.id) as [string, string]
  const job = await otherConnection(orch, t)

  // Rendered and cached: the same bytes twice.
  const idle = await orch.call('GET', '/api/status')
  assert.equal(idle.json.lifecycle, 'IDLE')
  assert.equal(idle.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal((await orch.call('GET', '/api/status')).body, idle.body)
  assert.deepEqual(await taskStatuses(orch), [
    [t1, 'PENDING'],
    [t2, 'PENDING']
  ])

  // The job starts in its own process (a live one of ours) and claims a task: no event yet.
  const jobProcess = spawn('sleep', ['60'], { stdio: 'ignore' })
  t.after(() => {
    jobProcess.kill('SIGKILL')
  })
  const exited = new Promise((resolve) => jobProcess.once('exit', resolve))
  const { job: row } = await job.jobs.startJob(projectId, sprint.id, { resume: false })
  assert.ok(await job.jobs.markRunning(row.id, jobProcess.pid!, os.hostname()))
  assert.ok(await job.sprints.setStatus(sprint.id, 'RUNNING', { startedAt: new Date().toISOString() }))
  assert.ok(await job.tasks.transition(t1, 'CLAIMED', { from: ['PENDING'] }))
  let status = await statusOf(orch)
  assert.deepEqual([status.lifecycle, status.job?.id, status.job?.pid, status.progress.active], ['ACTIVE', row.id, jobProcess.pid, 1])
  assert.deepEqual(await taskStatuses(orch), [
    [t1, 'CLAIMED'],
    [t2, 'PENDING']
  ])

  // Task changes, an attempt, heartbeats and usage, each read right after it was written.
  assert.ok(await job.tasks.transition(t1, 'EXECUTING', { from: ['CLAIMED'], attempts: 1 }))
  await job.attempts.start(t1, row.id, 1, 'sh')
  assert.deepEqual(await taskStatuses(orch), [
    [t1, 'EXECUTING'],
    [t2, 'PENDING']
  ])
  await job.heartbeats.upsert(t1, { workerId: `job-${row.id}`, status: 'EXECUTING', currentAction: 'first step', filesChangedCount: 0 })
  assert.deepEqual(
    (await statusOf(orch)).agents.map((a: { currentAction: string; agent: string }) => [a.currentAction, a.agent]),
    [['first step', 'sh']]
  )
  await job.heartbeats.upsert(t1, { workerId: `job-${row.id}`, status: 'EXECUTING', currentAction: 'second step', filesChangedCount: 1 })
  assert.deepEqual(
    (await statusOf(orch)).agents.map((a: { currentAction: string }) => a.currentAction),
    ['second step']
  )
  assert.deepEqual(
    (await orch.call('GET', '/api/workers')).json.map((w: { currentAction: string }) => w.currentAction),
    ['second step']
  )
  await job.sprints.addUsage(sprint.id, 1234, 5000)
  assert.deepEqual((await statusOf(orch)).usage, { tokensUsed: 1234, costUsd: 0.005 })
  assert.ok(await job.tasks.transition(t1, 'DONE', { from: ['EXECUTING'], finishedAt: new Date().toISOString() }))
  assert.ok(await job.tasks.transition(t2, 'CLAIMED'))
  assert.ok(await job.tasks.transition(t2, 'EXECUTING', { attempts: 1 }))
  assert.deepEqual(await taskStatuses(orch), [
    [t1, 'DONE'],
    [t2, 'EXECUTING']
  ])
  status = await statusOf(orch)
  assert.deepEqual([status.progress.done, status.progress.active], [1, 1])
  assert.deepEqual((await orch.call('GET', '/api/sprint')).json.tasks, [`${t1}: one (DONE)`, `${t2}: two (EXECUTING)`])

  // An event alone shows too: the live view's revision counts it.
  const before = (await orch.call('GET', '/api/sprint/live')).json.revision
  await job.events.append(projectId, {
    type: 'task_heartbeat',
    sprintId: sprint.id,
    taskId: t2,
    data: { status: 'EXECUTING', currentAction: 'step', sequence: 1 }
  })
  assert.equal((await orch.call('GET', '/api/sprint/live')).json.revision, before + 1)

  // The job process dies and nobody writes anything: the next read finds it and orphans the run.
  jobProcess.kill('SIGKILL')
  await exited
  status = await statusOf(orch)
  assert.deepEqual([status.lifecycle, status.active, status.job, status.resumable], ['ORPHANED', false, null, true])
  assert.equal(status.alerts[0].code, 'RUN_ORPHANED')
  assert.deepEqual(await taskStatuses(orch), [
    [t1, 'DONE'],
    [t2, 'ORPHANED']
  ])
  assert.equal((await job.jobs.get(row.id))?.status, 'orphaned')
})

test('a dead job is orphaned on the very next read of any cached view, even right after a cached one', async (t) => {
  const orch = await startOrchestrator()
  const { projectId, sprint, tasks } = await seedSprint(orch, ['only'])
  const job = await otherConnection(orch, t)
  const jobProcess = spawn('sleep', ['60'], { stdio: 'ignore' })
  t.after(() => {
    jobProcess.kill('SIGKILL')
  })
  const exited = new Promise((resolve) => jobProcess.once('exit', resolve))
  const { job: row } = await job.jobs.startJob(projectId, sprint.id, { resume: false })
  await job.jobs.markRunning(row.id, jobProcess.pid!, os.hostname())
  await job.tasks.transition(tasks[0]!.id, 'CLAIMED')
  await job.tasks.transition(tasks[0]!.id, 'EXECUTING')
  for (let i = 0; i < 3; i++) assert.deepEqual(await taskStatuses(orch), [[tasks[0]!.id, 'EXECUTING']])
  assert.equal((await statusOf(orch)).lifecycle, 'ACTIVE')

  jobProcess.kill('SIGKILL')
  await exited
  // /api/tasks never reconciled before; now every cached view does, so it is the first to see it.
  assert.deepEqual(await taskStatuses(orch), [[tasks[0]!.id, 'ORPHANED']])
  assert.equal((await statusOf(orch)).lifecycle, 'ORPHANED')
  assert.equal((await orch.call('GET', '/api/sprint/live')).json.lifecycle.coordinator, 'dead')
})

test('a job on another host turns ORPHANED once its last sign of life is 30 s old, with no write in between', async (t) => {
  const orch = await startOrchestrator()
  const { projectId, sprint } = await seedSprint(orch, ['remote'])
  // Its last sign of life was 28 s ago: alive for two more seconds.
  const job = await otherConnection(orch, t, () => new Date(Date.now() - 28_000))
  const { job: row } = await job.jobs.startJob(projectId, sprint.id, { resume: false })
  await job.jobs.markRunning(row.id, 1, 'another-host')
  assert.equal((await statusOf(orch)).lifecycle, 'ACTIVE')
  await new Promise((resolve) => setTimeout(resolve, 2500))
  const status = await statusOf(orch)
  assert.equal(status.lifecycle, 'ORPHANED')
  assert.match(status.alerts[0].message, /job process 1 on another-host sent no heartbeat for 3\d s/)
})
