import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { eventually, startOrchestrator } from '../helpers/orchestrator.js'
import { tracked } from './orchestrator.sandbox.js'

test('while a task runs, /api/tasks and /api/status show its branch and worktree (both exist), and joiners get the job pid', async () => {
  const flags = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-views-'))
  after(() => fs.rmSync(flags, { recursive: true, force: true }))
  const go = path.join(flags, 'go')
  const running = path.join(flags, 'running')
  // Says it runs, waits for the flag, then changes one file.
  const script = 'touch "$2"; while [ ! -f "$1" ]; do sleep 0.1; done; echo "$0" > note.txt'
  const agent = { kind: 'command', argv: ['/bin/sh', '-c', script, '{taskId}', go, running] }
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { waiter: agent }, default_agent: 'waiter', engine: { kill_grace_seconds: 1 } },
    directives: '## Task 1: wait\nWaits for a flag.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const pid = started.json.pid as number
  assert.ok(Number.isInteger(pid), `the starter gets the pid: ${started.body}`)
  tracked.add(pid)
  const joined = await orch.call('POST', '/api/start')
  assert.equal(joined.json.pid, pid, `a caller joining the running job gets its pid: ${joined.body}`)
  assert.equal(joined.json.jobId, started.json.jobId)

  const task = await eventually(
    async () => {
      const found = ((await orch.call('GET', '/api/tasks')).json as any[]).find((t) => t.id === 's1-1')
      return found?.status === 'EXECUTING' && fs.existsSync(running) ? found : null
    },
    90_000,
    'the agent to run'
  )
  assert.equal(task.branch, 'quartet/s1/s1-1')
  assert.ok(task.worktree && fs.existsSync(task.worktree), `the worktree exists while the task runs: ${task.worktree}`)
  assert.equal(orch.project.git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main')
  assert.match(orch.project.git('branch', '--list', 'quartet/s1/s1-1'), /quartet\/s1\/s1-1/, 'the branch exists while the task runs')

  const status = (await orch.call('GET', '/api/status')).json
  assert.equal(status.job.pid, pid)
  const working = status.agents.find((a: any) => a.taskId === 's1-1')
  assert.deepEqual([working.branch, working.worktree], [task.branch, task.worktree])

  fs.writeFileSync(go, '')
  await eventually(async () => (await orch.call('GET', '/api/status')).json.lifecycle === 'COMPLETE', 90_000, 'the sprint to complete')
  const done = ((await orch.call('GET', '/api/tasks')).json as any[]).find((t) => t.id === 's1-1')
  assert.deepEqual([done.status, done.branch, done.worktree], ['DONE', task.branch, task.worktree])
})
