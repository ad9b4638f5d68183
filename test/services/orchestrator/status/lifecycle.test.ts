import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import os from 'node:os'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { markExecuting, seedSprint } from './seed.js'

test('a job whose process dies is shown running only while it lives, then ORPHANED with the recovery command', async (t) => {
  const orch = await startOrchestrator()
  const { projectId, sprint, tasks } = await seedSprint(orch, ['build it', 'test it'])
  const [t1, t2] = tasks.map((task) => task.id) as [string, string]
  await orch.repositories.sprints.setStatus(sprint.id, 'RUNNING', { startedAt: new Date().toISOString() })
  await markExecuting(orch, t1)

  // The "job" is a real process of ours; while it lives the run is active.
  const jobProcess = spawn('sleep', ['60'], { stdio: 'ignore' })
  t.after(() => {
    jobProcess.kill('SIGKILL')
  })
  const exited = new Promise((resolve) => jobProcess.once('exit', resolve))
  const { job } = await orch.repositories.jobs.startJob(projectId, sprint.id, { resume: false })
  assert.ok(await orch.repositories.jobs.markRunning(job.id, jobProcess.pid!, os.hostname()))
  await orch.repositories.attempts.start(t1, job.id, 1, 'sh')
  await orch.repositories.heartbeats.upsert(t1, {
    workerId: `job-${job.id}`,
    status: 'EXECUTING',
    currentAction: 'running sh',
    filesChangedCount: 0
  })

  const running = (await orch.call('GET', '/api/status')).json
  assert.equal(running.lifecycle, 'ACTIVE')
  assert.equal(running.active, true)
  assert.equal(running.idle, false)
  assert.deepEqual(running.sprint, { id: sprint.id, number: sprint.number, title: 'Seeded', phase: 'RUNNING', status: 'ACTIVE' })
  assert.equal(running.job.id, job.id)
  assert.equal(running.job.pid, jobProcess.pid)
  assert.deepEqual(
    running.agents.map((a: { taskId: string; workerId: string; status: string; agent: string }) => [
      a.taskId,
      a.workerId,
      a.status,
      a.agent
    ]),
    [[t1, `job-${job.id}`, 'EXECUTING', 'sh']]
  )
  assert.equal(running.progress.active, 1)
  assert.equal(running.progress.pending, 1)
  assert.deepEqual(running.alerts, [])
  const runningDetail = (await orch.call('GET', `/api/sprint/task/${t1}`)).json
  assert.deepEqual({ ...runningDetail.currentRun, startedAt: undefined }, { attempt: 1, agent: 'sh', jobId: job.id, startedAt: undefined })
  assert.equal(runningDetail.result, null)
  assert.equal((await orch.call('GET', '/api/sprint/live')).json.lifecycle.coordinator, 'alive')
  assert.equal((await orch.call('GET', `/api/job/${job.id}`)).json.status, 'running')

  jobProcess.kill('SIGKILL')
  await exited

  const status = (await orch.call('GET', '/api/status')).json
  assert.equal(status.lifecycle, 'ORPHANED')
  assert.equal(status.active, false)
  assert.equal(status.idle, false)
  assert.equal(status.resumable, true)
  assert.equal(status.recoveryCommand, 'quartet run --resume')
  assert.equal(status.job, null)
  assert.deepEqual(status.agents, [])
  assert.deepEqual({ phase: status.sprint.phase, status: status.sprint.status }, { phase: 'ORPHANED', status: 'ORPHANED' })
  assert.equal(status.progress.orphaned, 1)
  assert.equal(status.progress.active, 0)
  assert.equal(status.alerts.length, 1)
  assert.equal(status.alerts[0].code, 'RUN_ORPHANED')
  assert.equal(status.alerts[0].level, 'CRITICAL')
  assert.match(status.alerts[0].message, new RegExp(`job process ${jobProcess.pid} died.*quartet run --resume`))

  const job2 = (await orch.call('GET', `/api/job/${job.id}`)).json
  assert.equal(job2.status, 'orphaned')
  assert.match(job2.error, /died/)

  const live = (await orch.call('GET', '/api/sprint/live')).json
  assert.equal(live.active, false)
  assert.deepEqual(
    {
      lifecycle: live.lifecycle.lifecycle,
      coordinator: live.lifecycle.coordinator,
      resumable: live.lifecycle.resumable,
      recovery: live.lifecycle.recoveryCommand
    },
    { lifecycle: 'ORPHANED', coordinator: 'dead', resumable: true, recovery: 'quartet run --resume' }
  )
  assert.deepEqual(
    live.workers.map((w: { taskId: string; status: string }) => [w.taskId, w.status]),
    [
      [t1, 'ORPHANED'],
      [t2, 'PENDING']
    ]
  )

  const detail = (await orch.call('GET', `/api/sprint/task/${t1}`)).json
  assert.equal(detail.currentRun, null)
  assert.equal(detail.result.status, 'ORPHANED')
  assert.equal(detail.task.status, 'ORPHANED')
})

test('a job row left by a server that is gone (dead pid, never reconciled) is orphaned on the first status read', async () => {
  const orch = await startOrchestrator()
  const { projectId, sprint, tasks } = await seedSprint(orch, ['only'])
  await markExecuting(orch, tasks[0]!.id)
  const gone = spawn('true', { stdio: 'ignore' })
  await new Promise((resolve) => gone.once('exit', resolve))
  const { job } = await orch.repositories.jobs.startJob(projectId, sprint.id, { resume: false })
  await orch.repositories.jobs.markRunning(job.id, gone.pid!, os.hostname())

  const live = (await orch.call('GET', '/api/sprint/live')).json
  assert.equal(live.active, false)
  assert.equal(live.lifecycle.lifecycle, 'ORPHANED')
  const status = (await orch.call('GET', '/api/status')).json
  assert.equal(status.lifecycle, 'ORPHANED')
  assert.equal(status.active, false)
  assert.equal(status.recoveryCommand, 'quartet run --resume')
})

test('a sprint stopped by its budget is over (idle, not resumable) and says why in an alert', async () => {
  const orch = await startOrchestrator()
  const { projectId, sprint, tasks } = await seedSprint(orch, ['spend', 'never'])
  const reason = 'sprint budget exceeded: 120 tokens used, limit 100'
  await orch.repositories.sprints.setStatus(sprint.id, 'RUNNING', { startedAt: new Date(Date.now() - 65_000).toISOString() })
  await orch.repositories.tasks.transitionAll(sprint.id, 'CANCELLED', { from: ['PENDING'], reason })
  await orch.repositories.events.append(projectId, {
    type: 'budget_exceeded',
    sprintId: sprint.id,
    data: { reason, tokensUsed: 120, costMicroUsd: 0, limitTokens: 100, limitMicroUsd: null }
  })
  await orch.repositories.sprints.setStatus(sprint.id, 'ABORTED', { stopReason: reason, finishedAt: new Date().toISOString() })

  const status = (await orch.call('GET', '/api/status')).json
  assert.equal(status.lifecycle, 'ABORTED')
  assert.equal(status.idle, true)
  assert.equal(status.resumable, false)
  assert.deepEqual(
    status.alerts.map((a: { code: string; level: string; message: string }) => [a.code, a.level, a.message]),
    [['BUDGET_STOP', 'WARNING', `Sprint ${sprint.id} was stopped: ${reason}`]]
  )
  assert.equal(status.lastSprint.metrics.duration, '1m 5s')
  assert.deepEqual(
    status.lastSprint.tasks,
    tasks.map((task) => `${task.id}: ${task.title} (CANCELLED: ${reason})`)
  )
  const history = (await orch.call('GET', '/api/history')).json
  assert.deepEqual([history[0].status, history[0].stopReason, history[0].agents, history[0].noGoRate], ['ABORTED', reason, '-', '0%'])
})

test('sprints, tasks and jobs of another project in the same database are not visible', async () => {
  const orch = await startOrchestrator()
  const otherProject = await orch.repositories.projects.ensure(`${orch.project.root}-other`)
  const plan = {
    mode: 'structured' as const,
    warnings: [],
    tasks: [
      {
        key: '1',
        title: 'foreign',
        description: '',
        dependencies: [],
        files: [],
        goCriteria: [],
        noGoCriteria: [],
        priority: 'NORMAL' as const,
        expectChange: true
      }
    ]
  }
  const foreign = await orch.repositories.sprints.createFromPlan(otherProject, plan, { title: 'Other', directivesDigest: null })
  const { job } = await orch.repositories.jobs.startJob(otherProject, foreign.sprint.id, { resume: false })

  assert.equal((await orch.call('GET', `/api/sprint/task/${foreign.tasks[0]!.id}`)).status, 404)
  assert.equal((await orch.call('GET', `/api/worker/${foreign.tasks[0]!.id}/log`)).status, 404)
  assert.equal((await orch.call('GET', `/api/tasks?sprint=${foreign.sprint.id}`)).status, 404)
  assert.equal((await orch.call('GET', `/api/job/${job.id}`)).status, 404)
  assert.equal((await orch.call('GET', '/api/sprint')).status, 404)
  assert.deepEqual((await orch.call('GET', '/api/history')).json, [])
  assert.equal((await orch.call('GET', '/api/status')).json.lifecycle, 'IDLE')
})
