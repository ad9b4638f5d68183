import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from '../../../helpers/cli.js'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'
import { cliEnv, decide, decideAtTerminal } from './helpers.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }
const DIRECTIVES =
  '# Risky\n\n## Task 1: risky\nRisk: high\nWrite notes.\n\n' +
  '## Task 2: after\nDepends on: 1\nMore notes.\n\n## Task 3: safe\nRisk: low\nOther notes.\n'

async function startRiskySprint(approval: Record<string, unknown> = {}) {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      agents: { sh: AGENT },
      default_agent: 'sh',
      approval: { api_decide: true, default_expiry_seconds: 3600, expiry_action: 'deny', require_for_risk: ['high'], ...approval }
    },
    directives: DIRECTIVES
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  assert.equal((await orch.call('POST', '/api/start')).status, 202)
  const parked = await eventually(
    async () => {
      const tasks = (await orch.call('GET', '/api/tasks')).json as Array<{ id: string; status: string }>
      const pending = (await orch.call('GET', '/api/approvals')).json.pending
      return tasks.find((t) => t.id === 's1-1')?.status === 'AWAITING_APPROVAL' && pending.length === 1
        ? { tasks, approval: pending[0] }
        : null
    },
    60_000,
    'task 1 to wait for approval'
  )
  return { orch, approvalId: parked.approval.request.id as string, parked }
}

test(
  'a high-risk task parks AWAITING_APPROVAL; the CLI decides at a terminal; ' + 'the task runs at once and its dependent follows',
  async () => {
    const { orch, approvalId, parked } = await startRiskySprint()
    assert.equal(parked.approval.request.taskId, 's1-1')
    assert.equal(parked.approval.request.requester.kind, 'engine')
    const status = await orch.call('GET', '/api/status')
    assert.equal(status.json.lifecycle, 'ACTIVE')
    assert.ok(JSON.stringify(status.json).includes('"taskStatus":"AWAITING_APPROVAL"'), 'the status shows the parked task')
    await eventually(
      async () => ((await orch.call('GET', '/api/tasks')).json as any[]).find((t) => t.id === 's1-3')?.status === 'DONE',
      60_000,
      'the low-risk task to run meanwhile'
    )

    // Without a terminal the CLI refuses and decides nothing.
    const piped = await runCli(['approvals', 'decide', approvalId, 'allow'], cliEnv(orch), `${approvalId}\n`)
    assert.equal(piped.code, 2)
    assert.match(piped.stderr, /interactive terminal/)
    const listed = await runCli(['approvals', 'list'], cliEnv(orch))
    assert.equal(listed.code, 0, listed.stderr)
    assert.match(listed.stdout, new RegExp(approvalId))
    // A wrong confirmation decides nothing either.
    const wrong = await decideAtTerminal(orch, [approvalId, 'allow'], 'apr_not_this_one')
    assert.notEqual(wrong.code, 0)
    assert.match(wrong.output, /does not match/)
    assert.equal((await orch.call('GET', `/api/approvals/${approvalId}`)).json.category, 'pending')

    const decided = await decideAtTerminal(orch, [approvalId, 'allow', '--reason', 'reviewed'], approvalId)
    assert.equal(decided.code, 0, decided.output)
    const decidedAt = Date.now()
    await eventually(
      async () => (await orch.repositories.tasks.get('s1-1'))?.status !== 'AWAITING_APPROVAL',
      10_000,
      'the task to leave AWAITING_APPROVAL'
    )
    assert.ok(Date.now() - decidedAt < 1500, `the job saw the decision after ${Date.now() - decidedAt} ms`)
    const entry = (await orch.call('GET', `/api/approvals/${approvalId}`)).json
    assert.equal(entry.decision.channel, 'cli')
    assert.equal(entry.decision.reason, 'reviewed')
    assert.ok(entry.decision.decidedBy.length > 0)

    const projectId = await orch.repositories.projects.ensure(orch.project.root)
    await eventually(
      async () => (await orch.repositories.sprints.latest(projectId))?.status === 'COMPLETE',
      60_000,
      'the sprint to complete'
    )
    const tasks = (await orch.call('GET', '/api/tasks')).json as Array<{ id: string; status: string }>
    assert.deepEqual(
      tasks.map((t) => [t.id, t.status]),
      [
        ['s1-1', 'DONE'],
        ['s1-2', 'DONE'],
        ['s1-3', 'DONE']
      ]
    )
    const types = (await orch.repositories.events.readAfter(projectId, 0, 200)).filter((e) => e.taskId === 's1-1').map((e) => e.type)
    assert.deepEqual(types.slice(0, 3), ['task_awaiting_approval', 'task_approved', 'task_claimed'])
  }
)

test('a denied task ends NO_GO with the decision as its reason, and its dependent is blocked', async () => {
  const { orch, approvalId } = await startRiskySprint()
  assert.equal((await decide(orch, approvalId, { decision: 'deny', reason: 'not today' })).status, 200)
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  await eventually(async () => (await orch.repositories.sprints.latest(projectId))?.status === 'COMPLETE', 60_000, 'the sprint to end')
  const task1 = await orch.repositories.tasks.get('s1-1')
  assert.equal(task1?.status, 'NO_GO')
  assert.match(task1?.reason ?? '', new RegExp(`approval ${approvalId} deny by tok:[0-9a-f]{12}: not today`))
  assert.equal((await orch.repositories.tasks.get('s1-2'))?.status, 'BLOCKED')
  assert.equal((await orch.repositories.tasks.get('s1-3'))?.status, 'DONE')
  assert.equal((await orch.repositories.attempts.listForTask('s1-1')).length, 0, 'the denied task never ran')
})

test('an approval that expires applies the default action (deny): the task is NO_GO without anyone deciding', async () => {
  const { orch, approvalId } = await startRiskySprint({ default_expiry_seconds: 2 })
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  await eventually(async () => (await orch.repositories.sprints.latest(projectId))?.status === 'COMPLETE', 60_000, 'the sprint to end')
  const task1 = await orch.repositories.tasks.get('s1-1')
  assert.equal(task1?.status, 'NO_GO')
  assert.match(task1?.reason ?? '', /expired without a decision/)
  const entry = (await orch.call('GET', `/api/approvals/${approvalId}`)).json
  assert.equal(entry.category, 'expired')
  assert.equal(entry.decision.channel, 'ttl-expire')
})

test('killing the run while a task waits cancels the task and withdraws its request', async () => {
  const { orch, approvalId } = await startRiskySprint()
  assert.equal((await orch.call('POST', '/api/kill/all')).status, 200)
  await eventually(
    async () => (await orch.call('GET', `/api/approvals/${approvalId}`)).json.category !== 'pending',
    20_000,
    'the request to be withdrawn'
  )
  const entry = (await orch.call('GET', `/api/approvals/${approvalId}`)).json
  assert.equal(entry.category, 'denied')
  assert.equal(entry.decision.channel, 'withdrawn')
  assert.equal((await orch.repositories.tasks.get('s1-1'))?.status, 'CANCELLED')
})
