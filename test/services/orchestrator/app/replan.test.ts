import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

const SLEEPER = { kind: 'command', argv: ['/bin/sh', '-c', 'sleep 60'] }

test('a crashed sprint is not abandoned by accident: plan during a run is 409, after a crash it names --resume unless forced', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sleeper: SLEEPER }, default_agent: 'sleeper', engine: { kill_grace_seconds: 1 } },
    directives: '# Long\n\n## Task 1: wait\nSleeps.\n\n## Task 2: after\nDepends on: 1\nRisk: low\nMore.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const jobPid: number = started.json.pid
  after(() => {
    try {
      process.kill(jobPid, 'SIGKILL')
    } catch {
      /* gone */
    }
  })
  await eventually(
    async () => {
      const task = await orch.repositories.tasks.get('s1-1')
      return task?.status === 'EXECUTING'
    },
    120_000,
    'the agent to run'
  )

  const during = await orch.call('POST', '/api/plan')
  assert.equal(during.status, 409, during.body)
  assert.match(during.json.error, /A run is active \(job \d+ of sprint s1\).*quartet kill/)

  process.kill(jobPid, 'SIGKILL')
  await eventually(async () => (await orch.call('GET', '/api/status')).json.lifecycle === 'ORPHANED', 20_000, 'the sprint to be orphaned')

  const refused = await orch.call('POST', '/api/plan')
  assert.equal(refused.status, 409, refused.body)
  assert.match(
    refused.json.error,
    /Sprint s1 was left ORPHANED with 2 unfinished tasks \(s1-1, s1-2\): resume it with quartet run --resume/
  )
  assert.match(refused.json.error, /--force/)
  const start = await orch.call('POST', '/api/start')
  assert.equal(start.status, 409, start.body)
  assert.match(start.json.error, /sprint s1 was left ORPHANED .*quartet run --resume/)
  assert.equal((await orch.call('GET', '/api/status')).json.lifecycle, 'ORPHANED', 'refusals changed nothing')

  const forced = await orch.call('POST', '/api/plan', { force: true })
  assert.equal(forced.status, 200, forced.body)
  assert.deepEqual(forced.json.abandoned, { sprintId: 's1', status: 'ORPHANED', tasks: ['s1-1', 's1-2'] })
  assert.equal(forced.json.id, 's2')
  assert.deepEqual(
    forced.json.tasks.map((t: { risk: string | null }) => t.risk),
    [null, 'low']
  )
  const old = await orch.repositories.sprints.get('s1')
  assert.deepEqual([old?.status, old?.stopReason], ['ABORTED', 'abandoned: replaced by sprint s2'])
  const oldTask = await orch.repositories.tasks.get('s1-1')
  assert.deepEqual([oldTask?.status, oldTask?.reason], ['CANCELLED', 'abandoned: replaced by sprint s2'])
})
