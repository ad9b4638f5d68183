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
import { procState } from '../../../../src/services/orchestrator/engine/process-group.js'
import { createRunControl } from '../../../../src/services/orchestrator/engine/run-control.js'
import { planOf, shellTask, waitGone } from './helpers.js'

let database: TestDatabase
let repos: OrchestratorRepositories
let tmp: string
let offsetMs = 0
const clock = () => new Date(Date.now() + offsetMs)
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, clock)
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-stalled-'))
})
after(async () => {
  await database.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

async function jobRunningAs(pid: number, name: string) {
  const projectId = await repos.projects.ensure(path.join(tmp, name))
  const { sprint } = await repos.sprints.createFromPlan(projectId, planOf([shellTask('1', 'true')]), {
    title: name,
    directivesDigest: null
  })
  const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  await repos.jobs.markRunning(job.id, pid, os.hostname())
  await repos.sprints.setStatus(sprint.id, 'RUNNING')
  return { projectId, jobId: job.id }
}

function sleeper(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  after(() => child.kill('SIGKILL'))
  return child.pid!
}

test('a job frozen by SIGSTOP is orphaned as "stalled (stopped …)", not as died, once its heartbeat is 30 s old', async () => {
  offsetMs = 0
  const control = createRunControl({ repositories: repos, clock, killGraceMs: () => 100 })
  const pid = sleeper()
  const run = await jobRunningAs(pid, 'frozen')
  process.kill(pid, 'SIGSTOP')
  // The stop takes effect when the kernel next schedules the process: on a busy machine, a moment later.
  for (let i = 0; i < 100 && !['T', 't'].includes(procState(pid) ?? ''); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  assert.equal((await control.reconcile(run.projectId)).orphanedJob, null, 'a fresh heartbeat: still active though stopped')
  offsetMs = 31_000
  const stale = await repos.jobs.active(run.projectId)
  assert.equal(control.jobNeedsReconcile(stale!), true)
  const result = await control.reconcile(run.projectId)
  assert.equal(result.orphanedJob, run.jobId)
  assert.match((await repos.jobs.get(run.jobId))!.error!, new RegExp(`^job process ${pid} stalled \\(stopped, no heartbeat for 3\\d s\\)$`))
  assert.equal(await waitGone(pid), true, 'the frozen job is killed so it cannot write next to the one that resumes')
})

test('a live job that stopped beating without being stopped is "stalled (no heartbeat …)"; a gone one "died"', async () => {
  offsetMs = 0
  const control = createRunControl({ repositories: repos, clock, killGraceMs: () => 100 })
  const hung = await jobRunningAs(sleeper(), 'hung')
  offsetMs = 31_000
  await control.reconcile(hung.projectId)
  assert.match((await repos.jobs.get(hung.jobId))!.error!, /^job process \d+ stalled \(no heartbeat for 3\d s\)$/)

  offsetMs = 0
  const gonePid = sleeper()
  const gone = await jobRunningAs(gonePid, 'gone')
  process.kill(gonePid, 'SIGKILL')
  assert.equal(await waitGone(gonePid), true)
  await control.reconcile(gone.projectId)
  assert.equal((await repos.jobs.get(gone.jobId))!.error, `job process ${gonePid} died`)
})

test('watchJobs orphans a dead job without any read', async () => {
  offsetMs = 0
  const events: string[] = []
  const control = createRunControl({ repositories: repos, clock, killGraceMs: () => 100, notify: () => events.push('notified') })
  const pid = sleeper()
  const run = await jobRunningAs(pid, 'watched')
  const watch = control.watchJobs(run.projectId, { intervalMs: 50, onError: (error) => assert.fail(String(error)) })
  after(() => watch.stop())
  process.kill(pid, 'SIGKILL')
  const deadline = Date.now() + 5000
  // notify() is the last step of a reconcile: the job is orphaned and the event appended by then.
  while (events.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  watch.stop()
  const job = await repos.jobs.get(run.jobId)
  assert.deepEqual([job!.status, job!.error], ['orphaned', `job process ${pid} died`])
  assert.deepEqual(events, ['notified'])
})

test('a read during a reconciliation waits for it: it never sees the job ended but its agents not yet dealt with', async () => {
  offsetMs = 0
  const events: string[] = []
  const control = createRunControl({ repositories: repos, clock, killGraceMs: () => 100, notify: () => events.push('notified') })
  const pid = sleeper()
  const run = await jobRunningAs(pid, 'shared')
  process.kill(pid, 'SIGKILL')
  assert.equal(await waitGone(pid), true)
  const seenWhenSettled: string[][] = []
  const watcher = control.reconcile(run.projectId).then((result) => (seenWhenSettled.push([...events]), result))
  const reader = control.reconcile(run.projectId).then((result) => (seenWhenSettled.push([...events]), result))
  const [first, second] = await Promise.all([watcher, reader])
  assert.deepEqual(seenWhenSettled, [['notified'], ['notified']], 'both settle after the whole reconciliation')
  assert.equal(first.orphanedJob, run.jobId)
  assert.equal(second.orphanedJob, run.jobId, 'the reader shares the reconciliation in flight')
  assert.equal((await control.reconcile(run.projectId)).orphanedJob, null, 'a later read starts a new one, which finds nothing')
})
