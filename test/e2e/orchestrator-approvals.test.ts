/**
 * Approvals across a crash: kill -9 of the job while a task waits for approval, then
 * `quartet run --resume` — one open request per task, decided once, and a late decision of a
 * closed request answers 409 saying how it was closed (HTTP, RPC and the CLI alike).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../helpers/orchestrator.js'
import { cliEnv, decide, decideAtTerminal } from '../services/orchestrator/approvals/helpers.js'
import { liveMembers, tracked } from './orchestrator.sandbox.js'

const AGENT = { kind: 'command', argv: ['/bin/sh', '-c', 'echo "$0" >> notes.txt; echo wrote', '{taskId}'] }
const DIRECTIVES = '# Risky\n\n## Task 1: risky\nRisk: high\nWrite notes.\n\n## Task 2: safe\nRisk: low\nOther notes.\n'

type Tasks = Array<{ id: string; status: string; branch: string | null; worktree: string | null }>

async function taskOf(orch: OrchestratorHarness, id: string) {
  return ((await orch.call('GET', '/api/tasks')).json as Tasks).find((t) => t.id === id)
}

/** A sprint whose high-risk task s1-1 waits for approval; answers the request id and the job's pid. */
async function parkedSprint() {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      agents: { sh: AGENT },
      default_agent: 'sh',
      engine: { kill_grace_seconds: 1 },
      approval: { api_decide: true, default_expiry_seconds: 3600, expiry_action: 'deny', require_for_risk: ['high'] }
    },
    directives: DIRECTIVES
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const jobPid = started.json.pid as number
  assert.equal(typeof jobPid, 'number', `the starter gets the job's pid: ${started.body}`)
  tracked.add(jobPid)
  const approvalId = await eventually(
    async () => {
      const pending = (await orch.call('GET', '/api/approvals')).json.pending
      return (await taskOf(orch, 's1-1'))?.status === 'AWAITING_APPROVAL' && pending.length === 1 ? (pending[0].request.id as string) : null
    },
    90_000,
    'task 1 to wait for approval'
  )
  return { orch, approvalId, jobPid }
}

async function killJob(orch: OrchestratorHarness, jobPid: number): Promise<void> {
  process.kill(jobPid, 'SIGKILL')
  await eventually(() => Promise.resolve(liveMembers(jobPid).length === 0), 10_000, 'the job process to die')
  await eventually(async () => (await orch.call('GET', '/api/status')).json.lifecycle === 'ORPHANED', 20_000, 'the sprint to be ORPHANED')
  assert.equal((await taskOf(orch, 's1-1'))?.status, 'ORPHANED')
}

async function requestsOfTask(orch: OrchestratorHarness, taskId: string) {
  const all = (await orch.call('GET', '/api/approvals')).json as Record<string, Array<{ request: { id: string; taskId: string } }>>
  return Object.values(all)
    .flat()
    .filter((entry) => entry.request.taskId === taskId)
}

async function resumeDetached(orch: OrchestratorHarness): Promise<void> {
  const resumed = await runCli(['run', '--resume', '--detach'], cliEnv(orch))
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr)
  const pid = /pid (\d+)/.exec(resumed.stdout)?.[1]
  if (pid) tracked.add(Number(pid))
}

async function sprintComplete(orch: OrchestratorHarness): Promise<void> {
  await eventually(async () => (await orch.call('GET', '/api/status')).json.lifecycle === 'COMPLETE', 90_000, 'the sprint to complete')
}

test('kill -9 while a task waits for approval: the resumed run rejoins the one open request; deciding it once runs the task', async () => {
  const { orch, approvalId, jobPid } = await parkedSprint()
  // A caller that joins the running job is told its pid too.
  const joined = await orch.call('POST', '/api/start')
  assert.equal(joined.json.pid, jobPid, joined.body)
  await killJob(orch, jobPid)
  assert.equal((await orch.call('GET', `/api/approvals/${approvalId}`)).json.category, 'pending', 'the request survives its job')

  await resumeDetached(orch)
  await eventually(async () => (await taskOf(orch, 's1-1'))?.status === 'AWAITING_APPROVAL', 90_000, 'the resumed task to wait again')
  const open = (await orch.call('GET', '/api/approvals')).json.pending as Array<{ request: { id: string; taskId: string } }>
  assert.deepEqual(
    open.map((entry) => [entry.request.id, entry.request.taskId]),
    [[approvalId, 's1-1']],
    'exactly one open request for the task: the same one'
  )
  assert.equal((await requestsOfTask(orch, 's1-1')).length, 1, 'the resume asked nobody again')

  const allowed = await decide(orch, approvalId, { decision: 'allow', reason: 'go' })
  assert.equal(allowed.status, 200, allowed.body)
  await sprintComplete(orch)
  assert.equal((await taskOf(orch, 's1-1'))?.status, 'DONE')
  assert.match(orch.project.git('show', 'quartet/s1/s1-1:notes.txt'), /s1-1/)

  // The id stays the task's one request: deciding it again says it is closed, and by whom.
  const again = await decide(orch, approvalId, { decision: 'deny' })
  assert.equal(again.status, 409)
  assert.match(again.json.error, new RegExp(`${approvalId} is closed: already decided \\(approved\\): allow by .* via api at `))
})

test('a decision taken while the job was dead counts for the resumed attempt: no second request', async () => {
  const { orch, approvalId, jobPid } = await parkedSprint()
  await killJob(orch, jobPid)
  const atTerminal = await decideAtTerminal(orch, [approvalId, 'allow', '--reason', 'while it was down'], approvalId)
  assert.equal(atTerminal.code, 0, atTerminal.output)

  await resumeDetached(orch)
  await sprintComplete(orch)
  assert.equal((await taskOf(orch, 's1-1'))?.status, 'DONE')
  assert.deepEqual(
    (await requestsOfTask(orch, 's1-1')).map((entry) => entry.request.id),
    [approvalId],
    'the decision made while no job was watching was applied, nobody was asked again'
  )
})

test('a forced plan supersedes the orphaned task open request: HTTP, RPC and the CLI answer that it is closed and why', async () => {
  const { orch, approvalId, jobPid } = await parkedSprint()
  await killJob(orch, jobPid)
  const planned = await orch.call('POST', '/api/plan', { force: true })
  assert.equal(planned.status, 200, planned.body)

  const entry = (await orch.call('GET', `/api/approvals/${approvalId}`)).json
  assert.equal(entry.category, 'denied')
  assert.equal(entry.decision.closureReason, 'superseded')
  assert.match(entry.decision.reason, /abandoned: replaced by sprint s2/)
  assert.equal((await orch.call('GET', '/api/approvals')).json.pending.length, 0, 'the inbox no longer offers it')

  const http = await decide(orch, approvalId, { decision: 'allow' })
  assert.equal(http.status, 409)
  assert.match(http.json.error, new RegExp(`${approvalId} is closed: superseded without a decision: abandoned: replaced by sprint s2`))

  const rpc = await orch.call('POST', '/api/rpc', {
    id: 'r1',
    version: '1.0',
    method: 'approval.decide',
    params: { requestId: approvalId, decision: 'allow' }
  })
  assert.equal(rpc.json.error.code, 'CONFLICT', rpc.body)
  assert.equal(rpc.json.error.data.closure, 'superseded')
  assert.match(rpc.json.error.message, /superseded without a decision/)

  const cli = await decideAtTerminal(orch, [approvalId, 'allow'], approvalId)
  assert.notEqual(cli.code, 0)
  assert.match(
    cli.output,
    new RegExp(`${approvalId} is closed: superseded without a decision: abandoned: replaced by sprint s2; nothing to decide`)
  )
})
