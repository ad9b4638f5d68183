import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

// Task "-2" fails with output on stdout; every other task writes a file and succeeds.
const AGENT = {
  kind: 'command',
  argv: [
    '/bin/sh',
    '-c',
    'case "$0" in *-2) echo "boom: cannot do $0"; exit 3;; ' +
      '*) echo "$0" >> notes.txt; echo "line one"; echo "line two"; echo "wrote $0";; esac',
    '{taskId}'
  ]
}
const DIRECTIVES =
  '# Demo\n\n## Task 1: first\nWrite notes.\n\n## Task 2: second\nThis one fails.\n\n## Task 3: third\nDepends on: 2\nNever runs.\n'

test('after a real sprint with DONE, NO_GO and BLOCKED tasks every read view tells what happened', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: AGENT }, default_agent: 'sh' },
    directives: DIRECTIVES
  })
  const planned = await orch.call('POST', '/api/plan')
  assert.equal(planned.status, 200, planned.body)
  const sprintId: string = planned.json.id
  const [t1, t2, t3] = planned.json.tasks.map((t: { id: string }) => t.id) as [string, string, string]

  // Planned but not started: a sprint exists, nothing runs.
  const before = await orch.call('GET', '/api/sprint')
  assert.equal(before.status, 200)
  assert.equal(before.json.metrics.tasks, '3')
  assert.equal(before.json.metrics.duration, '-')
  const revisionBefore: number = (await orch.call('GET', '/api/sprint/live')).json.revision

  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const jobId: number = started.json.jobId
  await eventually(async () => (await orch.call('GET', '/api/status')).json.lifecycle === 'COMPLETE', 60_000, 'the sprint to complete')

  const status = (await orch.call('GET', '/api/status')).json
  assert.equal(status.idle, true)
  assert.equal(status.active, false)
  assert.deepEqual(status.sprint, { id: sprintId, phase: 'COMPLETE', status: 'COMPLETE' }, 'idle, and the last sprint is COMPLETE')
  assert.deepEqual(
    { done: status.progress.done, noGo: status.progress.noGo, blocked: status.progress.blocked, total: status.progress.total },
    { done: 1, noGo: 1, blocked: 1, total: 3 }
  )
  assert.deepEqual(status.alerts, [])
  assert.equal(status.lastSprint.id, sprintId)
  assert.deepEqual(
    { ...status.lastSprint.metrics, duration: undefined },
    { tasks: '3', completed: '1', noGoRate: '33%', coverage: '-', duration: undefined }
  )
  assert.match(status.lastSprint.metrics.duration, /^(\d+m )?\d+s$/)
  assert.equal(status.lastSprint.tasks.length, 3)
  assert.match(status.lastSprint.tasks[0], new RegExp(`^${t1}: first \\(DONE\\)$`))
  assert.match(status.lastSprint.tasks[1], new RegExp(`^${t2}: second \\(NO_GO: `))
  assert.match(status.lastSprint.tasks[2], new RegExp(`^${t3}: third \\(BLOCKED: dependency 2 ended NO_GO\\)$`))
  assert.ok(status.statusReadModel.revision > revisionBefore)

  const sprint = (await orch.call('GET', '/api/sprint')).json
  assert.deepEqual(sprint.metrics, status.lastSprint.metrics)
  assert.equal(sprint.status, 'COMPLETE')

  const history = (await orch.call('GET', '/api/history')).json
  assert.equal(history.length, 1)
  assert.deepEqual(
    {
      id: history[0].id,
      sprint: history[0].sprint,
      status: history[0].status,
      tasks: history[0].tasks,
      completed: history[0].completed,
      noGoRate: history[0].noGoRate,
      agents: history[0].agents,
      skills: history[0].skills
    },
    { id: sprintId, sprint: 'Demo', status: 'COMPLETE', tasks: '3', completed: '1', noGoRate: '33%', agents: 'sh', skills: '-' }
  )
  assert.ok(history[0].durationMs >= 0 && history[0].finishedAt)

  const tasks = (await orch.call('GET', '/api/tasks')).json
  assert.deepEqual(
    tasks.map((t: { id: string; status: string }) => [t.id, t.status]),
    [
      [t1, 'DONE'],
      [t2, 'NO_GO'],
      [t3, 'BLOCKED']
    ]
  )
  assert.deepEqual(tasks[2].dependencies, [t2])
  assert.equal(tasks[0].assignedAgent, 'sh')
  assert.equal(tasks[0].attempts, 1)
  assert.equal(tasks[0].branch, `quartet/${sprintId}/${t1}`)
  assert.equal(tasks[0].commit, orch.project.git('rev-parse', tasks[0].branch).trim())
  assert.deepEqual(tasks[0].filesChanged, ['notes.txt'])
  assert.equal(tasks[2].attempts, 0)
  assert.deepEqual((await orch.call('GET', `/api/tasks?sprint=${sprintId}`)).json, tasks)

  const done = await orch.call('GET', `/api/sprint/task/${t1}?tailLines=2`)
  assert.equal(done.status, 200, done.body)
  assert.deepEqual(Object.keys(done.json).sort(), ['currentRun', 'hb', 'lineage', 'plan', 'result', 'task', 'taskId'])
  assert.equal(done.json.result.status, 'DONE')
  assert.equal(done.json.result.exitCode, 0)
  assert.equal(done.json.result.commit, tasks[0].commit)
  assert.deepEqual(done.json.result.filesChanged, ['notes.txt'])
  assert.deepEqual(done.json.result.usage, { inputTokens: 0, outputTokens: 0, costUsd: null, model: null })
  assert.equal(done.json.currentRun, null)
  // The exact prompt the agent got: the sprint's context (DIRECTIVES.md before the first task), then the task.
  assert.match(done.json.plan.text, /^# Sprint context\n# Demo\n\n# Task: first\n\nWrite notes\./)
  assert.equal(done.json.lineage.logTailAvailable, true)
  assert.equal(done.json.lineage.logTail.lines.length, 2)
  assert.equal(done.json.lineage.logTail.truncated, true)
  assert.ok(
    done.json.lineage.logTail.lines.some((line: string) => line.includes(`wrote ${t1}`)),
    done.json.lineage.logTail.lines.join('|')
  )
  assert.equal(done.json.hb.taskId, t1)
  assert.equal(done.json.hb.workerId, `job-${jobId}`)
  const defaultTail = (await orch.call('GET', `/api/sprint/task/${t1}`)).json.lineage.logTail
  assert.ok(defaultTail.lines.length > 2 && defaultTail.lines.length <= 40)
  assert.ok(defaultTail.lines.includes('line one'))

  const failed = (await orch.call('GET', `/api/sprint/task/${t2}`)).json
  assert.equal(failed.result.status, 'NO_GO')
  assert.equal(failed.result.exitCode, 3)
  assert.match(failed.result.reason, /boom/)
  assert.deepEqual(failed.result.filesChanged, [])
  const blocked = (await orch.call('GET', `/api/sprint/task/${t3}`)).json
  assert.equal(blocked.result, null)
  assert.equal(blocked.hb, null)
  assert.deepEqual(blocked.lineage, { logPath: blocked.lineage.logPath, logTailAvailable: false, logTail: null, resultEvidence: null })

  const log = (await orch.call('GET', `/api/worker/${t2}/log`)).json
  assert.equal(log.taskId, t2)
  assert.match(log.log, new RegExp(`boom: cannot do ${t2}`))
  assert.equal(log.truncated, false)
  assert.equal(log.task.status, 'NO_GO')
  assert.equal((await orch.call('GET', `/api/worker/${t3}/log`)).json.log, '')

  const workers = (await orch.call('GET', '/api/workers')).json
  assert.deepEqual(
    workers.map((w: { taskId: string; taskStatus: string; workerId: string }) => [w.taskId, w.taskStatus, w.workerId]).sort(),
    [
      [t1, 'DONE', `job-${jobId}`],
      [t2, 'NO_GO', `job-${jobId}`]
    ]
  )
  for (const worker of workers) {
    assert.equal(worker.stale, false)
    assert.ok(worker.sequence >= 1 && Date.parse(worker.timestamp) > 0)
  }

  // The output of a finished task: the whole log as a snapshot, then done (the stream ends by itself).
  const output = await orch.call('GET', `/api/output-stream?taskId=${t1}`)
  assert.equal(output.status, 200)
  const frames = output.body
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => ({ event: block.split('\n')[0]!.slice(7), data: JSON.parse(block.split('\n')[1]!.slice(6)) }))
  assert.deepEqual(
    frames.map((f) => f.event),
    ['snapshot', 'done']
  )
  assert.ok(frames[0]!.data.snapshot.lines.includes(`wrote ${t1}`))
  assert.equal(frames[0]!.data.snapshot.totalLinesReceived, frames[0]!.data.snapshot.lines.length)
  assert.deepEqual(frames[1]!.data, { taskId: t1, reason: 'task DONE' })

  const job = await orch.call('GET', `/api/job/${jobId}`)
  assert.equal(job.status, 200, job.body)
  assert.equal(job.json.id, jobId)
  assert.equal(job.json.sprintId, sprintId)
  assert.equal(job.json.status, 'completed')

  const live = (await orch.call('GET', '/api/sprint/live')).json
  assert.equal(live.sprintId, sprintId)
  assert.equal(live.lifecycle.lifecycle, 'COMPLETE')
  assert.equal(live.active, false)
  assert.deepEqual(
    live.workers.map((w: { taskId: string; status: string; agent: string | null }) => [w.taskId, w.status, w.agent]),
    [
      [t1, 'DONE', 'sh'],
      [t2, 'NO_GO', 'sh'],
      [t3, 'BLOCKED', null]
    ]
  )
  assert.equal(live.workers[2].hb, null)
  assert.ok(live.workers[0].hb.sequence >= 1 && live.workers[0].hb.ageMs >= 0)
})
