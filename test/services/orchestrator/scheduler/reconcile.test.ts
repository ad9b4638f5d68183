import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { processStartTicks } from '../../../../src/services/orchestrator/engine/process-group.js'
import { createRunControl } from '../../../../src/services/orchestrator/engine/run-control.js'
import { runSprint } from '../../../../src/services/orchestrator/engine/scheduler.js'
import { createShellExecutor } from './fixtures/shell-executor.js'
import { planOf, processRunning, shellTask, testConfig, waitGone, pidsOf } from './helpers.js'

let database: TestDatabase
let repos: OrchestratorRepositories
let tmp: string
let now = Date.parse('2026-03-01T10:00:00Z')
const clock = () => new Date(now)
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, clock)
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-reconcile-'))
})
after(async () => {
  await database.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

async function runningJobOn(host: string, name: string) {
  const projectId = await repos.projects.ensure(path.join(tmp, name))
  const { sprint, tasks } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true'), shellTask('2', 'true')]), {
    title: name,
    directivesDigest: null
  })
  const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  // The pid of this test process: alive, so only the heartbeat can tell a job elsewhere is dead.
  await repos.jobs.markRunning(job.id, process.pid, host)
  await repos.sprints.setStatus(sprint.id, 'RUNNING')
  await repos.tasks.transition(tasks[0]!.id, 'CLAIMED')
  await repos.tasks.transition(tasks[0]!.id, 'EXECUTING')
  return { projectId, sprintId: sprint.id, jobId: job.id, taskIds: tasks.map((t) => t.id) }
}

test('a job on another host is judged by its heartbeat: fresh stays ACTIVE, silent for 30 s becomes ORPHANED', async () => {
  const control = createRunControl({ repositories: repos, clock, hostname: 'this-host', killGraceMs: () => 100 })
  const run = await runningJobOn('other-host', 'remote')
  now += 20_000
  assert.equal((await control.statusView(run.projectId)).lifecycle, 'ACTIVE')
  assert.equal(await control.cleanupBlocked(run.projectId), true)
  now += 15_000
  assert.deepEqual(await control.reconcileAll(), [run.jobId])
  const view = await control.statusView(run.projectId)
  assert.deepEqual([view.lifecycle, view.active, view.resumable], ['ORPHANED', false, true])
  const task = await repos.tasks.get(run.taskIds[0]!)
  assert.equal(task?.status, 'ORPHANED')
  assert.equal(task?.reason, `job process ${process.pid} on other-host sent no heartbeat for 35 s`)
  assert.equal((await repos.tasks.get(run.taskIds[1]!))?.status, 'PENDING')
  assert.equal((await repos.sprints.get(run.sprintId))?.status, 'ORPHANED')
  assert.equal(await control.cleanupBlocked(run.projectId), false)
  assert.equal((await control.jobView(run.jobId))?.status, 'orphaned')
  assert.equal(await control.jobView(999999), undefined)
})

test('a queued job that never started is orphaned after 30 s; an empty project is IDLE', async () => {
  const control = createRunControl({ repositories: repos, clock, killGraceMs: () => 100 })
  const projectId = await repos.projects.ensure(path.join(tmp, 'never'))
  const empty = await control.statusView(projectId)
  assert.deepEqual([empty.lifecycle, empty.sprint, empty.progress, empty.recoveryCommand], ['IDLE', null, null, null])
  const { sprint } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true')]), {
    title: 'never',
    directivesDigest: null
  })
  const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  assert.equal((await control.statusView(projectId)).lifecycle, 'ACTIVE')
  now += 31_000
  const result = await control.reconcile(projectId)
  assert.equal(result.orphanedJob, job.id)
  assert.equal((await repos.jobs.get(job.id))?.error, `job ${job.id} never started`)
})

test('killTask cancels one running task, kills its agent group, blocks its dependents; the sprint goes on', async () => {
  const realClock = () => new Date()
  const control = createRunControl({ repositories: repos, clock: realClock, killGraceMs: () => 500 })
  const root = fs.mkdtempSync(path.join(tmp, 'killtask-'))
  const projectId = await repos.projects.ensure(root)
  const { sprint } = await repos.sprints.createFromPlan(
    projectId,
    planOf([
      shellTask('1', 'sleep 30 & echo $! > "$OUT/sleep.pid"; wait'),
      shellTask('2', 'true', { dependencies: ['1'] }),
      shellTask('3', 'echo ok > "$OUT/three"')
    ]),
    { title: 'kt', directivesDigest: null }
  )
  const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  const running = runSprint({
    repositories: createOrchestratorRepositories(database.db as OrchestratorDb, realClock),
    projectId,
    sprintId: sprint.id,
    jobId: job.id,
    executeTask: createShellExecutor({ OUT: root }),
    config: testConfig({ engine: { max_workers: 1 } }),
    projectRoot: root,
    dataDir: path.join(root, 'data'),
    gitMode: true,
    clock: realClock,
    signal: new AbortController().signal
  })
  const pidFile = path.join(root, 'sleep.pid')
  while (
    !fs.existsSync(pidFile) ||
    fs.readFileSync(pidFile, 'utf8').trim() === '' ||
    (await repos.attempts.listRunning({ taskId: `${sprint.id}-1` })).flatMap(pidsOf).length === 0
  ) {
    await new Promise((r) => setTimeout(r, 50))
  }
  const sleepPid = Number(fs.readFileSync(pidFile, 'utf8'))
  const killed = await control.killTask(`${sprint.id}-1`)
  assert.equal(killed.killed, true)
  assert.equal(killed.killedPids.length, 1)
  const result = await running
  assert.equal(result.status, 'COMPLETE')
  assert.equal(await waitGone(sleepPid), true)
  const tasks = await repos.tasks.listBySprint(sprint.id)
  assert.deepEqual(
    tasks.map((t) => [t.status, t.reason]),
    [
      ['CANCELLED', 'killed by user'],
      ['BLOCKED', 'dependency 1 ended CANCELLED'],
      ['DONE', 'command exited 0']
    ]
  )
  assert.equal((await control.killTask(`${sprint.id}-1`)).killed, false)
})

test(
  'reconcile kills only process groups provably still the recorded ones: ' + 'a wrong start time or a job pid started later is left alive',
  async (t) => {
    // The job row says it started a minute ago; every process below starts now, i.e. after it.
    const startedAt = Date.now() - 60_000
    const r = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date(startedAt))
    const control = createRunControl({ repositories: r, clock: () => new Date(), killGraceMs: () => 200 })
    const sleeper = () => {
      const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
      t.after(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          /* already gone */
        }
      })
      return child.pid!
    }
    const [jobPid, own, stranger, legacy] = [sleeper(), sleeper(), sleeper(), sleeper()]
    const projectId = await r.projects.ensure(path.join(tmp, 'reuse'))
    const { sprint, tasks } = await r.sprints.createFromPlan(
      projectId,
      planOf([shellTask('1', 'true'), shellTask('2', 'true'), shellTask('3', 'true')]),
      { title: 'reuse', directivesDigest: null }
    )
    const { job } = await r.jobs.startJob(projectId, sprint.id, { resume: false })
    await r.jobs.markRunning(job.id, jobPid, os.hostname())
    await r.sprints.setStatus(sprint.id, 'RUNNING')
    const attempts = []
    for (const task of tasks) {
      await r.tasks.transition(task.id, 'CLAIMED')
      await r.tasks.transition(task.id, 'EXECUTING')
      attempts.push(await r.attempts.start(task.id, job.id, 1, 'agent'))
    }
    await r.attempts.addPid(attempts[0]!.id, own, processStartTicks(own))
    await r.attempts.addPid(attempts[1]!.id, stranger, processStartTicks(stranger)! + 1)
    // Rows written before start times were recorded hold plain pids: those groups are killed as before.
    await database.db
      .updateTable('orch_attempts')
      .set({ pids: JSON.stringify([legacy]) })
      .where('id', '=', attempts[2]!.id)
      .execute()

    const result = await control.reconcile(projectId)
    assert.equal(result.orphanedJob, job.id)
    assert.equal((await r.jobs.get(job.id))?.error, `job process ${jobPid} died`)
    assert.deepEqual(result.killedPids.sort(), [own, legacy].sort())
    assert.equal(await waitGone(own), true)
    assert.equal(await waitGone(legacy), true)
    assert.equal(processRunning(stranger), true)
    assert.equal(processRunning(jobPid), true)
    assert.deepEqual(
      (await r.tasks.listBySprint(sprint.id)).map((task) => task.status),
      ['ORPHANED', 'ORPHANED', 'ORPHANED']
    )
  }
)
