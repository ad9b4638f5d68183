import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }

test('a planned sprint runs as a detached job: each task commits on its own branch, events arrive in order', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: AGENT }, default_agent: 'sh' },
    directives: '# Demo\n\n## Task 1: first\nWrite notes.\n\n## Task 2: second\nDepends on: 1\nMore notes.\n'
  })
  const planned = await orch.call('POST', '/api/plan')
  assert.equal(planned.status, 200, planned.body)
  assert.equal(planned.json.id, planned.json.id)
  assert.deepEqual(
    planned.json.tasks.map((t: { key: string }) => t.key),
    ['1', '2']
  )

  const started = await orch.call('POST', '/api/v1/start')
  assert.equal(started.status, 202, started.body)
  assert.equal(started.json.created, true)

  await eventually(
    async () => (await orch.repositories.sprints.latest(await orch.repositories.projects.ensure(orch.project.root)))?.status === 'COMPLETE',
    60_000,
    'the sprint to complete'
  )
  const branches = orch.project
    .git('branch', '--list', 'quartet/*')
    .split('\n')
    .map((b) => b.trim())
    .filter(Boolean)
  assert.equal(branches.length, 2)
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const types = (await orch.repositories.events.readAfter(projectId, 0, 100)).map((e) => e.type)
  assert.deepEqual(
    types.filter((t) => ['sprint_planned', 'job_started', 'sprint_started', 'task_done', 'sprint_finished'].includes(t)),
    ['sprint_planned', 'job_started', 'sprint_started', 'task_done', 'task_done', 'sprint_finished']
  )
  // The main checkout is untouched: the work lives on the task branches.
  assert.equal(orch.project.git('status', '--porcelain'), '')
})

test('control routes are refused over HTTP unless control mutations are enabled', async () => {
  const orch = await startOrchestrator({ config: { agents: { sh: AGENT } }, directives: '## Task 1: one\nx\n' })
  const refused = await orch.call('POST', '/api/plan')
  assert.equal(refused.status, 403)
  assert.match(refused.json.error, /QUARTET_CONTROL_MUTATIONS=1/)
  assert.equal((await orch.call('GET', '/api/directives')).json.content, '## Task 1: one\nx\n')
  assert.equal((await orch.call('GET', '/api/status', undefined, { authorization: 'Bearer wrong' })).status, 403)
  assert.equal((await orch.call('DELETE', '/api/directives')).status, 405)
})
