import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { startCli } from '../helpers/cli.js'
import { connectSse } from '../services/orchestrator/streams/sse-client.js'
import { eventually, liveMembers, sandbox, tracked } from './orchestrator.sandbox.js'

test('a server restart mid-sprint: the job keeps running, /api/events replays what was missed after Last-Event-ID', async () => {
  const box = await sandbox({ directives: '## Task 1: quick\nWrite.\n\n## Task 2: wait\nAgent: waiter\nWaits for a flag.\n' })
  assert.equal((await box.cli('plan')).code, 0)
  const serve = () =>
    startCli(['serve', 'orchestrator', '--project', box.root, '--port', '0'], { ...box.env, QUARTET_CONTROL_MUTATIONS: '1' }, 60_000)
  const first = await serve()
  after(() => first.stop('SIGKILL'))
  const base = first.urls.orchestrator!
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const auth = { authorization: `Bearer ${token}` }
  const start = await fetch(`${base}/api/start`, { method: 'POST', headers: auth })
  assert.equal(start.status, 202, await start.clone().text())
  const { pid } = (await start.json()) as { pid: number }
  tracked.add(pid)

  const live = await connectSse(`${base}/api/events?after=0`, auth)
  const has = (frames: { event?: string; data: string }[], type: string, task?: string) =>
    frames.some((f) => f.event === type && (!task || JSON.parse(f.data).taskId === task))
  await live.waitFor(() => has(live.frames, 'task_done', 's1-1') && has(live.frames, 'task_started', 's1-2'), 90_000)
  const lastSeen = Number(live.frames.at(-1)!.id)
  live.close()
  assert.equal(await first.stop('SIGTERM'), 0)

  assert.deepEqual(liveMembers(pid), [pid], 'the job outlives the server')
  assert.equal((await box.statusJson()).lifecycle, 'ACTIVE')
  fs.writeFileSync(path.join(box.state, 'go'), '')
  await eventually(async () => (await box.statusJson()).lifecycle === 'COMPLETE', 90_000, 'the sprint to complete while no server runs')

  const second = await serve()
  after(() => second.stop('SIGKILL'))
  const replay = await connectSse(`${second.urls.orchestrator!}/api/events`, { ...auth, 'last-event-id': String(lastSeen) })
  await replay.waitFor(() => has(replay.frames, 'sprint_finished'), 30_000)
  replay.close()
  assert.equal(Number(replay.frames[0]!.id), lastSeen + 1, 'the replay starts right after the last event seen')
  assert.ok(has(replay.frames, 'task_done', 's1-2'), 'the event missed while the server was down is replayed')
  assert.equal(JSON.parse(replay.frames.find((f) => f.event === 'sprint_finished')!.data).data.status, 'COMPLETE')
  assert.equal(await second.stop('SIGTERM'), 0)
})
