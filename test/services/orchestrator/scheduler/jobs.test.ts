import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, test } from 'node:test'
import type { Database } from '../../../../src/core/db/database.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { launchDetachedJob } from '../../../../src/services/orchestrator/engine/job-launch.js'
import { createRunControl, type RunControl } from '../../../../src/services/orchestrator/engine/run-control.js'
import type { PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'
import { planOf, processRunning, shellTask, testConfig, waitGone, pidsOf } from './helpers.js'
import { createSharedDatabase } from './shared-db.js'

const repoRoot = path.resolve(import.meta.dirname, '../../../..')
const fixtures = path.join(import.meta.dirname, 'fixtures')
let database: Database
let dbEnv: Record<string, string>
let dir: string
let repos: OrchestratorRepositories
let control: RunControl
/** Every pid and process group these tests start, killed at the end if anything is left. */
const started = new Set<number>()

before(async () => {
  ;({ database, env: dbEnv, dir } = await createSharedDatabase())
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
  control = createRunControl({ repositories: repos, clock: () => new Date(), killGraceMs: () => 1000 })
})
after(async () => {
  for (const pid of started) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      /* gone */
    }
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      /* gone */
    }
  }
  await database.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 60000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function queueSprint(name: string, tasks: PlannedTask[], engine: Parameters<typeof testConfig>[0] = {}) {
  const root = fs.mkdtempSync(path.join(dir, `${name}-`))
  const projectId = await repos.projects.ensure(root)
  const { sprint } = await repos.sprints.createFromPlan(projectId, planOf(tasks), { title: name, directivesDigest: null })
  const { job, created } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  assert.equal(created, true)
  return { root, projectId, sprintId: sprint.id, jobId: job.id, config: testConfig(engine) }
}

function jobCommand(q: { root: string; projectId: number; config: unknown }, jobId: number) {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', path.join(fixtures, 'job-entry.ts')],
    logFile: path.join(q.root, 'data', `job-${jobId}.log`),
    cwd: repoRoot,
    env: {
      ...process.env,
      ...dbEnv,
      TEST_PROJECT_ID: String(q.projectId),
      TEST_JOB_ID: String(jobId),
      TEST_OUT: q.root,
      TEST_DATA_DIR: path.join(q.root, 'data'),
      TEST_CONFIG: JSON.stringify(q.config)
    }
  }
}

function launch(q: Parameters<typeof jobCommand>[0], jobId: number): number {
  const { pid } = launchDetachedJob(jobCommand(q, jobId), { spawn })
  started.add(pid)
  return pid
}

const readPid = (file: string) => () => {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : ''
  return text === '' ? undefined : Number(text)
}

test('a detached job survives the process that launched it and completes the sprint', async () => {
  const q = await queueSprint('detached', [
    shellTask('1', 'sleep 1; echo a > "$OUT/a"'),
    shellTask('2', 'echo b > "$OUT/b"', { dependencies: ['1'] })
  ])
  const launcher = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(fixtures, 'launcher.ts'), JSON.stringify(jobCommand(q, q.jobId))],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] }
  )
  started.add(launcher.pid!)
  let out = ''
  launcher.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  const code = await new Promise<number | null>((resolve) => launcher.on('exit', resolve))
  assert.equal(code, 0)
  const jobPid = Number(out.trim())
  started.add(jobPid)
  assert.equal(processRunning(launcher.pid!), false, 'the launcher is gone')
  assert.notEqual((await repos.jobs.get(q.jobId))?.status, 'completed', 'the job was still working when its launcher exited')

  const job = await waitFor('job completed', async () => {
    const j = await repos.jobs.get(q.jobId)
    return j?.status === 'completed' && j
  })
  assert.equal(job.pid, jobPid)
  assert.equal(job.active, false)
  assert.equal((await repos.sprints.get(q.sprintId))?.status, 'COMPLETE')
  assert.equal(fs.readFileSync(path.join(q.root, 'b'), 'utf8'), 'b\n')
  assert.equal(await waitGone(jobPid), true)
  const view = await control.statusView(q.projectId)
  assert.deepEqual(
    [view.lifecycle, view.active, view.resumable, view.progress?.done, view.progress?.total],
    ['COMPLETE', false, false, 2, 2]
  )
  assert.deepEqual((await control.jobView(q.jobId))?.status, 'completed')
})

test(
  'kill -9 of the job mid-sprint: reconcile shows ORPHANED, ' + 'kills the orphaned agent group, keeps DONE work; resume finishes',
  async () => {
    const second =
      'if [ -f "$OUT/second" ]; then echo resumed > "$OUT/two"; else touch "$OUT/second"; sleep 30 & echo $! > "$OUT/sleep.pid"; wait; fi'
    const q = await queueSprint(
      'crash',
      [
        shellTask('1', 'echo one > "$OUT/one"'),
        shellTask('2', second, { dependencies: ['1'] }),
        shellTask('3', 'echo three > "$OUT/three"', { dependencies: ['2'] })
      ],
      { engine: { max_workers: 1 } }
    )
    const jobPid = launch(q, q.jobId)
    const sleepPid = await waitFor('sleep started', readPid(path.join(q.root, 'sleep.pid')))
    started.add(sleepPid)
    const agentGroups = await waitFor('agent pid recorded', async () => {
      const pids = (await repos.attempts.listForTask(`${q.sprintId}-2`)).flatMap(pidsOf)
      return pids.length > 0 && pids
    })
    for (const pid of agentGroups) started.add(pid)
    assert.equal((await control.statusView(q.projectId)).lifecycle, 'ACTIVE')

    process.kill(jobPid, 'SIGKILL')
    await waitGone(jobPid)
    assert.equal(processRunning(sleepPid), true, 'the agent outlived its job')
    const view = await control.statusView(q.projectId)
    assert.equal(view.lifecycle, 'ORPHANED')
    assert.equal(view.active, false)
    assert.equal(view.job, null, 'a dead job is never shown')
    assert.equal(view.resumable, true)
    assert.equal(view.recoveryCommand, 'quartet run --resume')
    assert.deepEqual(view.progress, { done: 1, active: 0, blocked: 0, noGo: 0, pending: 1, orphaned: 1, cancelled: 0, total: 3 })
    const orphan = await repos.tasks.get(`${q.sprintId}-2`)
    assert.deepEqual([orphan?.status, orphan?.reason], ['ORPHANED', `job process ${jobPid} died`])
    const job = await repos.jobs.get(q.jobId)
    assert.deepEqual([job?.status, job?.active], ['orphaned', false])
    assert.equal(await waitGone(sleepPid), true, 'reconcile killed the orphaned agent group')
    for (const pid of agentGroups) assert.equal(await waitGone(pid), true)
    const events = await repos.events.readAfter(q.projectId, 0, 1000)
    assert.deepEqual(
      events.filter((e) => e.type === 'job_orphaned').map((e) => e.data.tasks),
      [[`${q.sprintId}-2`]]
    )
    assert.deepEqual((await control.reconcile(q.projectId)).orphanedJob, null, 'reconcile is idempotent')

    const resumed = await control.resumeSprint(q.projectId)
    assert.equal(resumed.created, true)
    assert.equal(resumed.job.resume, true)
    assert.deepEqual(resumed.tasks, [`${q.sprintId}-2`])
    assert.equal((await control.resumeSprint(q.projectId)).created, false, 'a second resume gets the same job')
    launch(q, resumed.job.id)
    await waitFor('resumed job completed', async () => (await repos.jobs.get(resumed.job.id))?.status === 'completed')
    const tasks = await repos.tasks.listBySprint(q.sprintId)
    assert.deepEqual(
      tasks.map((t) => [t.key, t.status, t.attempts]),
      [
        ['1', 'DONE', 1],
        ['2', 'DONE', 2],
        ['3', 'DONE', 1]
      ]
    )
    assert.equal(fs.readFileSync(path.join(q.root, 'two'), 'utf8'), 'resumed\n')
    assert.equal((await control.statusView(q.projectId)).lifecycle, 'COMPLETE')
    const all = await repos.events.readAfter(q.projectId, 0, 1000)
    assert.deepEqual(
      all.map((e) => e.seq),
      all.map((_, i) => i + 1)
    )
  }
)

test('killJob stops the job and every agent process it started', async () => {
  const q = await queueSprint(
    'kill',
    [
      shellTask('1', 'sleep 30 & echo $! > "$OUT/sleep1.pid"; wait'),
      shellTask('2', 'echo $$ > "$OUT/sleep2.pid"; exec sleep 30'),
      shellTask('3', 'true', { dependencies: ['1'] })
    ],
    { engine: { max_workers: 2, kill_grace_seconds: 1 } }
  )
  const jobPid = launch(q, q.jobId)
  const sleepPids = [
    await waitFor('sleep 1', readPid(path.join(q.root, 'sleep1.pid'))),
    await waitFor('sleep 2', readPid(path.join(q.root, 'sleep2.pid')))
  ]
  for (const pid of sleepPids) started.add(pid)
  const recorded = await waitFor('both agents recorded', async () => {
    const pids = (await repos.attempts.listForJob(q.jobId)).flatMap(pidsOf)
    return pids.length === 2 && pids
  })
  for (const pid of recorded) started.add(pid)

  const result = await control.killJob(q.projectId)
  assert.equal(result.killed, true)
  assert.equal(result.jobPid, jobPid)
  for (const pid of [jobPid, ...recorded, ...sleepPids]) assert.equal(await waitGone(pid), true, `pid ${pid} is gone`)
  const job = await repos.jobs.get(q.jobId)
  assert.deepEqual([job?.status, job?.active], ['killed', false])
  const tasks = await repos.tasks.listBySprint(q.sprintId)
  assert.deepEqual(
    tasks.map((t) => [t.status, t.reason]),
    [
      ['CANCELLED', 'killed by user'],
      ['CANCELLED', 'killed by user'],
      ['CANCELLED', 'killed by user']
    ]
  )
  const sprint = await repos.sprints.get(q.sprintId)
  assert.deepEqual([sprint?.status, sprint?.stopReason], ['ABORTED', 'killed by user'])
  const killed = (await repos.events.readAfter(q.projectId, 0, 1000)).find((e) => e.type === 'job_killed')
  assert.equal(killed?.data.gracefully, true, 'the job handled SIGTERM: aborted its agents and recorded the kill itself')
  const view = await control.statusView(q.projectId)
  assert.deepEqual([view.lifecycle, view.resumable], ['ABORTED', true])
  assert.equal((await control.killJob(q.projectId)).killed, false, 'nothing left to kill')
})

test('removing the project directory mid-sprint stops the job and its agents, and the sprint says why', async () => {
  const q = await queueSprint(
    'removed',
    [shellTask('1', 'sleep 30 & echo $! > "$OUT/sleep.pid"; wait'), shellTask('2', 'true', { dependencies: ['1'] })],
    { engine: { max_workers: 1, kill_grace_seconds: 1 } }
  )
  const jobPid = launch(q, q.jobId)
  const sleepPid = await waitFor('sleep started', readPid(path.join(q.root, 'sleep.pid')))
  started.add(sleepPid)

  fs.rmSync(q.root, { recursive: true, force: true })
  const job = await waitFor(
    'job ended',
    async () => {
      const j = await repos.jobs.get(q.jobId)
      return j?.active === false && j
    },
    15000
  )
  assert.equal(job.status, 'killed')
  for (const pid of [jobPid, sleepPid]) assert.equal(await waitGone(pid), true, `pid ${pid} is gone`)
  const reason = `job interrupted: project directory ${q.root} was removed`
  const sprint = await repos.sprints.get(q.sprintId)
  assert.deepEqual([sprint?.status, sprint?.stopReason], ['ABORTED', reason])
  const tasks = await repos.tasks.listBySprint(q.sprintId)
  assert.deepEqual(
    tasks.map((t) => [t.status, t.reason]),
    [
      ['CANCELLED', reason],
      ['CANCELLED', reason]
    ]
  )
  assert.deepEqual((await control.statusView(q.projectId)).resumable, true, 'interrupted work can be resumed once the project is back')
})
