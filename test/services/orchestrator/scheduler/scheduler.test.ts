import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { runSprint, type RunSprintOptions } from '../../../../src/services/orchestrator/engine/scheduler.js'
import { retryDelayMs, scopesOverlap } from '../../../../src/services/orchestrator/engine/schedule-rules.js'
import { taskLogFile } from '../../../../src/services/orchestrator/engine/worker-log.js'
import type { ExecuteTask, PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'
import { createShellExecutor } from './fixtures/shell-executor.js'
import { planOf, shellTask, testConfig, waitGone, pidsOf } from './helpers.js'

let database: TestDatabase
let repos: OrchestratorRepositories
let tmp: string
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-sched-'))
})
after(async () => {
  await database.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

/** Wraps an executor to observe how many attempts run at the same moment, and which. */
function observed(inner: ExecuteTask) {
  const stats = { current: 0, max: 0, intervals: new Map<string, Array<[number, number]>>() }
  const execute: ExecuteTask = async (input) => {
    stats.current++
    stats.max = Math.max(stats.max, stats.current)
    const start = performance.now()
    try {
      return await inner(input)
    } finally {
      stats.current--
      const list = stats.intervals.get(input.task.key) ?? []
      list.push([start, performance.now()])
      stats.intervals.set(input.task.key, list)
    }
  }
  return { execute, stats }
}

async function setup(name: string, tasks: PlannedTask[], overrides: Parameters<typeof testConfig>[0] = {}, gitMode = true) {
  const root = fs.mkdtempSync(path.join(tmp, `${name}-`))
  const projectId = await repos.projects.ensure(root)
  const { sprint } = await repos.sprints.createFromPlan(projectId, planOf(tasks), { title: name, directivesDigest: null })
  const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  const { execute, stats } = observed(createShellExecutor({ OUT: root }))
  const options: RunSprintOptions = {
    repositories: repos,
    projectId,
    sprintId: sprint.id,
    jobId: job.id,
    executeTask: execute,
    config: testConfig(overrides),
    projectRoot: root,
    dataDir: path.join(root, 'data'),
    gitMode,
    clock: () => new Date(),
    signal: new AbortController().signal
  }
  return { root, projectId, sprintId: sprint.id, options, stats }
}

async function statusOf(sprintId: string): Promise<Record<string, string>> {
  return Object.fromEntries((await repos.tasks.listBySprint(sprintId)).map((t) => [t.key, t.status]))
}

test('six tasks with dependencies and max_workers 2 run in dependency order, never more than two at once', async () => {
  const cmd = (key: string) => `sleep 0.3; echo ${key} > "$OUT/${key}.out"`
  const { root, projectId, sprintId, options, stats } = await setup(
    'six',
    [
      shellTask('1', cmd('1')),
      shellTask('2', cmd('2')),
      shellTask('3', cmd('3'), { dependencies: ['1'] }),
      shellTask('4', cmd('4'), { dependencies: ['1', '2'] }),
      shellTask('5', cmd('5'), { dependencies: ['3'], priority: 'HIGH' }),
      shellTask('6', cmd('6'), { dependencies: ['4', '5'] })
    ],
    { engine: { max_workers: 2 } }
  )
  const result = await runSprint(options)
  assert.equal(result.status, 'COMPLETE')
  assert.deepEqual(result.counts, { DONE: 6 })
  assert.equal(stats.max, 2)
  for (const key of ['1', '2', '3', '4', '5', '6']) assert.equal(fs.readFileSync(path.join(root, `${key}.out`), 'utf8'), `${key}\n`)

  const events = await repos.events.readAfter(projectId, 0, 1000)
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
    'sequence is dense'
  )
  assert.equal(events[0]?.type, 'sprint_started')
  assert.equal(events.at(-1)?.type, 'sprint_finished')
  const finished = events.at(-1)
  assert.deepEqual(finished?.type === 'sprint_finished' && finished.data.counts, { DONE: 6 })
  const seqOf = (type: string, key: string) => events.find((e) => e.type === type && e.taskId === `${sprintId}-${key}`)!.seq
  const deps: Record<string, string[]> = { 3: ['1'], 4: ['1', '2'], 5: ['3'], 6: ['4', '5'] }
  for (const [key, list] of Object.entries(deps)) {
    for (const dep of list) assert.ok(seqOf('task_started', key) > seqOf('task_done', dep), `${key} started after ${dep} was done`)
  }
  for (const key of ['1', '2', '3', '4', '5', '6']) {
    const id = `${sprintId}-${key}`
    const sequence = events.filter((e) => e.taskId === id).map((e) => e.type)
    // The first heartbeat of an attempt is also published as an event (then at most every 15 s).
    assert.deepEqual(sequence, ['task_claimed', 'task_started', 'task_heartbeat', 'task_done'])
    assert.ok(fs.existsSync(taskLogFile(options.dataDir, sprintId, id)))
    assert.equal((await repos.heartbeats.get(id))?.status, 'EXECUTING')
    const attempts = await repos.attempts.listForTask(id)
    assert.equal(attempts.length, 1)
    assert.equal(attempts[0]?.status, 'DONE')
    assert.equal(pidsOf(attempts[0]!).length, 1)
  }
  assert.equal((await repos.sprints.get(sprintId))?.status, 'COMPLETE')
})

test('a failed dependency blocks its dependents (transitively) with the reason', async () => {
  const { sprintId, options } = await setup('blocked', [
    shellTask('1', 'exit 3'),
    shellTask('2', 'true', { dependencies: ['1'] }),
    shellTask('3', 'true', { dependencies: ['2'] }),
    shellTask('4', 'true'),
    shellTask('5', 'true', { dependencies: ['missing'] }),
    shellTask('6', 'true', { dependencies: ['7'] }),
    shellTask('7', 'true', { dependencies: ['6'] })
  ])
  const result = await runSprint(options)
  assert.equal(result.status, 'COMPLETE')
  assert.deepEqual(await statusOf(sprintId), {
    1: 'NO_GO',
    2: 'BLOCKED',
    3: 'BLOCKED',
    4: 'DONE',
    5: 'BLOCKED',
    6: 'BLOCKED',
    7: 'BLOCKED'
  })
  const tasks = await repos.tasks.listBySprint(sprintId)
  assert.equal(tasks[0]?.reason, 'command exited 3')
  assert.equal(tasks[1]?.reason, 'dependency 1 ended NO_GO')
  assert.equal(tasks[2]?.reason, 'dependency 2 ended BLOCKED')
  assert.equal(tasks[4]?.reason, 'unknown dependency missing')
  assert.equal(tasks[5]?.reason, 'dependency cycle')
})

test('a transient failure is retried with backoff and then succeeds; a permanent one is not retried', async () => {
  const flaky = 'n=$(cat "$OUT/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$OUT/count"; [ $n -ge 3 ] || exit 75'
  const { projectId, sprintId, options } = await setup('retry', [shellTask('1', flaky), shellTask('2', 'exit 1')], {
    engine: { max_attempts: 3, retry_base_delay_ms: 50 }
  })
  await runSprint(options)
  assert.deepEqual(await statusOf(sprintId), { 1: 'DONE', 2: 'NO_GO' })
  const attempts = await repos.attempts.listForTask(`${sprintId}-1`)
  assert.deepEqual(
    attempts.map((a) => [a.number, a.status, a.transient]),
    [
      [1, 'NO_GO', true],
      [2, 'NO_GO', true],
      [3, 'DONE', false]
    ]
  )
  assert.equal((await repos.tasks.get(`${sprintId}-1`))?.attempts, 3)
  assert.equal((await repos.attempts.listForTask(`${sprintId}-2`)).length, 1)
  const retries = (await repos.events.readAfter(projectId, 0, 1000)).filter((e) => e.type === 'task_retry')
  assert.deepEqual(
    retries.map((e) => e.data.nextAttempt),
    [2, 3]
  )
  const [first, second] = retries.map((e) => Number(e.data.delayMs))
  assert.ok(first! >= 40 && first! <= 60 && second! >= 80 && second! <= 120, `delays ${first} ${second}`)
  for (let i = 0; i < 50; i++) {
    const d = retryDelayMs(1000, 3)
    assert.ok(d >= 3200 && d <= 4800)
  }
})

test('exceeding the sprint budget stops the sprint: running attempt aborted, the rest CANCELLED, event recorded', async () => {
  const { projectId, sprintId, options } = await setup(
    'budget',
    [
      shellTask('1', 'echo "USAGE 400 200 0.01"'),
      shellTask('2', 'echo "USAGE 300 200 0.01"; echo $$ > "$OUT/pid2"; sleep 30'),
      shellTask('3', 'true'),
      shellTask('4', 'true', { dependencies: ['3'] })
    ],
    { engine: { max_workers: 1 }, budget: { sprint_tokens: 1000 } }
  )
  const started = Date.now()
  const result = await runSprint(options)
  assert.ok(Date.now() - started < 10000, 'the sleeping attempt was aborted')
  assert.equal(result.status, 'ABORTED')
  assert.equal(result.stopKind, 'budget')
  assert.match(result.stopReason!, /^sprint budget exceeded: 1100 tokens used, limit 1000/)
  assert.deepEqual(await statusOf(sprintId), { 1: 'DONE', 2: 'CANCELLED', 3: 'CANCELLED', 4: 'CANCELLED' })
  for (const task of (await repos.tasks.listBySprint(sprintId)).slice(1)) assert.equal(task.reason, result.stopReason)
  const sprint = await repos.sprints.get(sprintId)
  assert.deepEqual(
    [sprint?.status, sprint?.stopReason, sprint?.tokensUsed, sprint?.costMicroUsd],
    ['ABORTED', result.stopReason, 1100, 20000]
  )
  const events = await repos.events.readAfter(projectId, 0, 1000)
  assert.equal(events.filter((e) => e.type === 'budget_exceeded').length, 1)
  assert.equal(events.filter((e) => e.type === 'task_cancelled').length, 3)
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1)
  )
})

test('a task whose usage, reported after it finished, crosses the budget stays DONE; the budget stops what comes after', async () => {
  const { sprintId, options } = await setup(
    'budget-final',
    [shellTask('1', 'echo "FINAL USAGE 700 400 -"'), shellTask('2', 'true'), shellTask('3', 'true')],
    { engine: { max_workers: 1 }, budget: { sprint_tokens: 1000 } }
  )
  const result = await runSprint(options)
  assert.equal(result.stopKind, 'budget')
  assert.match(result.stopReason!, /^sprint budget exceeded: 1100 tokens used, limit 1000/)
  assert.deepEqual(await statusOf(sprintId), { 1: 'DONE', 2: 'CANCELLED', 3: 'CANCELLED' })
  const attempts = await repos.attempts.listForTask(`${sprintId}-1`)
  assert.equal(attempts[0]?.costMicroUsd, null, 'a cost the agent did not report stays unknown')
})

test('without git, tasks with overlapping file scopes never run at the same time', async () => {
  assert.equal(scopesOverlap(['src/**'], ['src/a/b.ts']), true)
  assert.equal(scopesOverlap(['src/*'], ['src/a.ts']), true)
  assert.equal(scopesOverlap(['src/a.ts'], ['src/b.ts']), false)
  assert.equal(scopesOverlap(['docs/**'], ['src/**']), false)
  assert.equal(scopesOverlap([], ['src/a.ts']), true)
  const cmd = 'sleep 0.4'
  const { sprintId, options, stats } = await setup(
    'scopes',
    [
      shellTask('1', cmd, { files: ['src/**'] }),
      shellTask('2', cmd, { files: ['src/a.ts'] }),
      shellTask('3', cmd, { files: ['docs/readme.md'] }),
      shellTask('4', cmd, { files: [] })
    ],
    { engine: { max_workers: 3 } },
    false
  )
  await runSprint(options)
  assert.deepEqual(await statusOf(sprintId), { 1: 'DONE', 2: 'DONE', 3: 'DONE', 4: 'DONE' })
  const span = (key: string) => stats.intervals.get(key)![0]!
  const overlap = (a: string, b: string) => span(a)[0] < span(b)[1] && span(b)[0] < span(a)[1]
  assert.equal(overlap('1', '2'), false)
  assert.equal(overlap('1', '3'), true, 'disjoint scopes do run together')
  for (const other of ['1', '2', '3']) assert.equal(overlap('4', other), false, 'a task without files runs alone')
})

test('aborting the run signal cancels running and waiting tasks and kills the agent process group', async () => {
  const { root, sprintId, options } = await setup('kill', [
    shellTask('1', 'sleep 30 & echo $! > "$OUT/child"; wait'),
    shellTask('2', 'true', { dependencies: ['1'] })
  ])
  const controller = new AbortController()
  const running = runSprint({ ...options, signal: controller.signal })
  const childFile = path.join(root, 'child')
  while (!fs.existsSync(childFile) || fs.readFileSync(childFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 50))
  const sleepPid = Number(fs.readFileSync(childFile, 'utf8'))
  controller.abort()
  const result = await running
  assert.deepEqual([result.status, result.stopKind, result.stopReason], ['ABORTED', 'killed', 'killed by user'])
  assert.deepEqual(await statusOf(sprintId), { 1: 'CANCELLED', 2: 'CANCELLED' })
  assert.equal(await waitGone(sleepPid), true, "the agent's background child was killed with its group")
})
