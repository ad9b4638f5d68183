/**
 * Approvals inside a run, end to end through the real server, a detached job process and an agent
 * process that asks for a permission over HTTP with its QUARTET_TASK_ID (as `quartet mcp`'s
 * permission tool and the PreToolUse hook do): the task shows AWAITING_APPROVAL while the request
 * is open and runs on after the decision; a kill, a timeout or a decision racing them leaves no
 * request pending and never brings an ended task back.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { eventually } from '../../../helpers/orchestrator.js'
import { runCli } from '../../../helpers/cli.js'
import { cliEnv, decide } from './helpers.js'
import { sprintEnded, startAskingRun, taskEvents, taskStatus } from './run-helpers.js'

test('an agent asking inside a run parks its task AWAITING_APPROVAL; allowed, the task runs on and ends DONE with its commit', async () => {
  const { orch, approvalId, approval } = await startAskingRun()
  assert.equal(approval.request.taskId, 's1-1', 'the request carries the task id')
  assert.equal(approval.request.requester.kind, 'agent')
  await eventually(async () => (await taskStatus(orch)) === 'AWAITING_APPROVAL', 10_000, 'the task to show AWAITING_APPROVAL')
  const status = await orch.call('GET', '/api/status')
  assert.ok(JSON.stringify(status.json).includes('"taskStatus":"AWAITING_APPROVAL"'), 'the status shows the waiting task')
  const cli = await runCli(['status', '--json'], cliEnv(orch))
  assert.equal(cli.code, 0, cli.stderr)
  const listed = JSON.parse(cli.stdout)
  const cliTasks = (listed.tasks ?? listed.sprint?.tasks ?? []) as Array<{ id: string; status: string }>
  assert.equal(cliTasks.find((t) => t.id === 's1-1')?.status, 'AWAITING_APPROVAL', cli.stdout)
  const parked = (await taskEvents(orch)).find((e) => e.type === 'task_awaiting_approval')
  assert.deepEqual(parked && { approvalId: parked.data.approvalId, summary: (parked.data as any).summary }, {
    approvalId,
    summary: 'Bash: make release'
  })

  assert.equal((await decide(orch, approvalId, { decision: 'allow', reason: 'go' })).status, 200)
  await sprintEnded(orch)
  const task = await orch.repositories.tasks.get('s1-1')
  assert.equal(task?.status, 'DONE', task?.reason ?? '')
  assert.ok(task?.commitSha)
  const committed = execFileSync('git', ['show', '--name-only', '--format=', task.commitSha], { cwd: orch.project.root, encoding: 'utf8' })
  assert.deepEqual(committed.trim().split('\n'), ['released.txt'])
  const types = (await taskEvents(orch)).map((e) => e.type)
  const closed = (await taskEvents(orch)).find((e) => e.type === 'task_approval_closed')
  assert.deepEqual(closed?.data && { outcome: (closed.data as any).outcome, status: (closed.data as any).status }, {
    outcome: 'approved',
    status: 'EXECUTING'
  })
  assert.deepEqual(
    types.filter((t) => t !== 'task_heartbeat'),
    ['task_claimed', 'task_started', 'task_awaiting_approval', 'task_approval_closed', 'task_done']
  )
})

test('denied inside a run, the agent ends without its work: NO_GO, and the reason names the denial', async () => {
  const { orch, approvalId } = await startAskingRun()
  await eventually(async () => (await taskStatus(orch)) === 'AWAITING_APPROVAL', 10_000, 'the task to wait')
  assert.equal((await decide(orch, approvalId, { decision: 'deny', reason: 'not today' })).status, 200)
  await sprintEnded(orch)
  const task = await orch.repositories.tasks.get('s1-1')
  assert.equal(task?.status, 'NO_GO')
  const first = (task?.reason ?? '').split('\n')[0]!
  assert.match(first, /^agent exited 0 but changed no files/)
  assert.match(first, new RegExp(`a human \\(tok:[0-9a-f]{12}\\) denied Bash: make release \\(${approvalId}: not today\\)`))
  const closed = (await taskEvents(orch)).find((e) => e.type === 'task_approval_closed')
  assert.equal((closed?.data as any)?.outcome, 'denied')
})

test('the task times out while its agent waits: NO_GO for the timeout, and the request is closed, never left pending', async () => {
  const { orch, approvalId } = await startAskingRun({ task_timeout_seconds: 3, kill_grace_seconds: 1 })
  await sprintEnded(orch)
  const task = await orch.repositories.tasks.get('s1-1')
  assert.equal(task?.status, 'NO_GO')
  assert.match(task?.reason ?? '', /^timed out after 3s \(engine\.task_timeout_seconds\)/)
  assert.match(task?.reason ?? '', new RegExp(`Bash: make release was closed unanswered \\(${approvalId}: the agent's attempt 1 ended`))
  const entry = (await orch.call('GET', `/api/approvals/${approvalId}`)).json
  assert.equal(entry.category, 'denied')
  assert.equal(entry.decision.channel, 'withdrawn')
})
