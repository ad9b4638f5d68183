import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { taskLogFile } from '../../../../src/services/orchestrator/engine/worker-log.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { connectSse, type SseClient } from '../streams/sse-client.js'
import { markExecuting, seedSprint } from './seed.js'

const framesOf = (client: SseClient, event: string) => client.frames.filter((f) => f.event === event).map((f) => JSON.parse(f.data))
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('the live stream sends a snapshot at once, then a new one each time the run changes', async (t) => {
  const orch = await startOrchestrator()
  const base = await orch.listen()
  const auth = { authorization: `Bearer ${orch.token}` }
  const client = await connectSse(`${base}/api/sprint/live/stream`, auth)
  t.after(() => client.close())
  assert.equal(client.status, 200)
  assert.match(String(client.headers['content-type']), /^text\/event-stream/)
  await client.waitFor(() => framesOf(client, 'snapshot').length >= 1)
  const first = framesOf(client, 'snapshot')[0]
  assert.deepEqual(
    { revision: first.revision, sprintId: first.sprintId, workers: first.workers, schemaVersion: first.schemaVersion },
    { revision: 0, sprintId: null, workers: [], schemaVersion: 1 }
  )

  // Nothing changes: no second snapshot.
  await pause(1200)
  assert.equal(framesOf(client, 'snapshot').length, 1)

  // A heartbeat alone (no event) is a change of the run.
  const { sprint, tasks } = await seedSprint(orch, ['stream me'])
  await markExecuting(orch, tasks[0]!.id)
  await orch.repositories.heartbeats.upsert(tasks[0]!.id, {
    workerId: 'job-1',
    status: 'EXECUTING',
    currentAction: 'thinking',
    filesChangedCount: 2
  })
  await client.waitFor(() => framesOf(client, 'snapshot').length >= 2)
  const second = framesOf(client, 'snapshot')[1]
  assert.ok(second.revision > first.revision)
  assert.equal(second.sprintId, sprint.id)
  assert.deepEqual(
    second.workers.map((w: { taskId: string; status: string; hb: { currentAction: string; filesChangedCount: number } }) => [
      w.taskId,
      w.status,
      w.hb.currentAction,
      w.hb.filesChangedCount
    ]),
    [[tasks[0]!.id, 'EXECUTING', 'thinking', 2]]
  )

  // A client that already has this revision gets nothing until the next change.
  const caughtUp = await connectSse(`${base}/api/sprint/live/stream?sinceRevision=${second.revision}`, auth)
  t.after(() => caughtUp.close())
  await pause(1200)
  assert.equal(framesOf(caughtUp, 'snapshot').length, 0)
  await orch.repositories.heartbeats.upsert(tasks[0]!.id, {
    workerId: 'job-1',
    status: 'TESTING',
    currentAction: 'checking',
    filesChangedCount: 3
  })
  await caughtUp.waitFor(() => framesOf(caughtUp, 'snapshot').length >= 1)
  const third = framesOf(caughtUp, 'snapshot')[0]
  assert.ok(third.revision > second.revision)
  assert.equal(third.workers[0].hb.status, 'TESTING')
  await client.waitFor(() => framesOf(client, 'snapshot').length >= 3)
  assert.equal(framesOf(client, 'snapshot')[2].revision, third.revision)
})

test('the output stream sends the log so far, then its new lines, then done when the task ends', async (t) => {
  const orch = await startOrchestrator()
  const base = await orch.listen()
  const auth = { authorization: `Bearer ${orch.token}` }
  const { sprint, tasks } = await seedSprint(orch, ['talk', 'wait'])
  const taskId = tasks[0]!.id
  await markExecuting(orch, taskId)
  await orch.repositories.heartbeats.upsert(taskId, {
    workerId: 'job-7',
    status: 'EXECUTING',
    currentAction: 'talking',
    filesChangedCount: 0
  })
  const log = taskLogFile(orch.config.dataDir, sprint.id, taskId)
  fs.mkdirSync(path.dirname(log), { recursive: true })
  fs.writeFileSync(log, 'one\r\n\ntwo\nthree\npart')

  assert.equal((await orch.call('GET', `/api/output-stream?taskId=${taskId}&sprintId=other`)).status, 404)
  const client = await connectSse(`${base}/api/output-stream?taskId=${taskId}&sprintId=${sprint.id}`, auth)
  t.after(() => client.close())
  assert.equal(client.status, 200)
  await client.waitFor(() => framesOf(client, 'snapshot').length >= 1)
  assert.deepEqual(framesOf(client, 'snapshot')[0], {
    taskId,
    snapshot: { workerId: 'job-7', taskId, lines: ['one', 'two', 'three'], totalLinesReceived: 3, droppedLines: 0 }
  })

  fs.appendFileSync(log, 'ial\nfour\n')
  await client.waitFor(() => framesOf(client, 'output').length >= 1)
  assert.deepEqual(framesOf(client, 'output')[0], { taskId, lines: ['partial', 'four'], totalReceived: 5, droppedLines: 0 })
  assert.equal(framesOf(client, 'done').length, 0)

  fs.appendFileSync(log, 'last words without newline')
  assert.ok(await orch.repositories.tasks.transition(taskId, 'DONE', { from: ['EXECUTING'], reason: 'all good' }))
  await client.waitFor(() => client.ended)
  const outputs = framesOf(client, 'output')
  assert.deepEqual(outputs.at(-1), { taskId, lines: ['last words without newline'], totalReceived: 6, droppedLines: 0 })
  assert.deepEqual(framesOf(client, 'done'), [{ taskId, reason: 'task DONE' }])
  assert.equal(client.frames.at(-1)?.event, 'done')

  // A task that waits for no job is not going to produce output: snapshot, then done.
  const waiting = await connectSse(`${base}/api/output-stream?taskId=${tasks[1]!.id}`, auth)
  t.after(() => waiting.close())
  await waiting.waitFor(() => waiting.ended)
  assert.deepEqual(
    waiting.frames.map((f) => f.event),
    ['snapshot', 'done']
  )
  assert.deepEqual(framesOf(waiting, 'snapshot')[0].snapshot, {
    workerId: null,
    taskId: tasks[1]!.id,
    lines: [],
    totalLinesReceived: 0,
    droppedLines: 0
  })
  assert.deepEqual(framesOf(waiting, 'done')[0], { taskId: tasks[1]!.id, reason: 'task PENDING' })
})

test('a big worker log is capped at its last 64,000 characters; the task detail tail at 200 lines', async () => {
  const orch = await startOrchestrator()
  const { sprint, tasks } = await seedSprint(orch, ['chatty'])
  const taskId = tasks[0]!.id
  const log = taskLogFile(orch.config.dataDir, sprint.id, taskId)
  fs.mkdirSync(path.dirname(log), { recursive: true })
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'é'.repeat(30)}`)
  fs.writeFileSync(log, `${lines.join('\n')}\n`)
  const full = `${lines.join('\n')}\n`

  const worker = (await orch.call('GET', `/api/worker/${taskId}/log`)).json
  assert.equal(worker.truncated, true)
  assert.equal(worker.log.length, 64_000)
  assert.equal(worker.log, full.slice(-64_000))

  const detail = (await orch.call('GET', `/api/sprint/task/${taskId}?tailLines=200`)).json
  assert.deepEqual(detail.lineage.logTail, { lines: lines.slice(-200), truncated: true })
  const small = (await orch.call('GET', `/api/sprint/task/${taskId}?tailLines=1`)).json
  assert.deepEqual(small.lineage.logTail.lines, [lines.at(-1)])
})
