/**
 * `quartet approval-hook` (the real CLI) against a listening orchestrator: the hook's JSON on
 * stdin becomes a pending approval (with the task id of the run that started the agent); an allow
 * exits 0 with the PreToolUse decision JSON, everything else exits 2 with the reason on stderr —
 * the only exit code the agent CLIs block on (docs/orchestrator-agents.md).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../helpers/orchestrator.js'

const CALL = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make release' }, tool_use_id: 'toolu_01' }
const hook = (root: string, input: string, env: Record<string, string | undefined> = {}) =>
  runCli(['approval-hook', '--project', root], { QUARTET_API_TOKEN: undefined, QUARTET_PROJECT: undefined, ...env }, input)

async function pendingOne(orch: OrchestratorHarness) {
  return eventually(async () => ((await orch.call('GET', '/api/approvals')).json.pending as any[])[0] ?? null, 60_000, "the hook's request")
}

async function decide(orch: OrchestratorHarness, id: string, decision: 'allow' | 'deny') {
  const decided = await orch.call(
    'POST',
    `/api/approvals/${id}/decision`,
    { decision, reason: `${decision} by the test` },
    {
      'idempotency-key': `hook-${id}`
    }
  )
  assert.equal(decided.status, 200, decided.body)
}

test('allow: the request is recorded with the task id and masked input; the hook exits 0 with the allow decision', async () => {
  const orch = await startOrchestrator({ config: { approval: { api_decide: true } } })
  await orch.listen()
  const running = hook(orch.project.root, JSON.stringify(CALL), { QUARTET_TASK_ID: 's9-1' })
  const entry = await pendingOne(orch)
  assert.equal(entry.request.toolName, 'Bash')
  assert.equal(entry.request.taskId, 's9-1')
  assert.match(entry.request.summary, /^Bash: make release/)
  await decide(orch, entry.request.id, 'allow')
  const done = await running
  assert.equal(done.code, 0, done.stderr)
  assert.deepEqual(JSON.parse(done.stdout), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'approved in Quartet' }
  })
})

test('deny: exit 2 and the reason names the approval and the decision', async () => {
  const orch = await startOrchestrator({ config: { approval: { api_decide: true } } })
  await orch.listen()
  const running = hook(orch.project.root, JSON.stringify({ ...CALL, hook_event_name: 'BeforeTool' }))
  const entry = await pendingOne(orch)
  await decide(orch, entry.request.id, 'deny')
  const done = await running
  assert.equal(done.code, 2)
  assert.equal(done.stdout, '')
  assert.match(done.stderr, new RegExp(`Quartet approval ${entry.request.id} was deny.* deny by the test`))
})

test('an expired request blocks (exit 2, "expired")', async () => {
  const orch = await startOrchestrator({ config: { approval: { default_expiry_seconds: 1, expiry_action: 'deny' } } })
  await orch.listen()
  const done = await hook(orch.project.root, JSON.stringify(CALL))
  assert.equal(done.code, 2, done.stderr)
  assert.match(done.stderr, /expired without a decision/)
})

test('unreadable input and an unreachable server block with exit 2 and record nothing', async () => {
  const orch = await startOrchestrator({ config: { approval: { api_decide: true } } })
  await orch.listen()
  for (const [input, reason] of [
    ['', /not JSON/],
    ['{"tool_name":', /not JSON/],
    ['[1,2]', /not a JSON object/],
    ['{"tool_input":{}}', /no tool_name/],
    ['{"tool_name":"Bash","tool_input":"rm -rf /"}', /tool_input is not an object/],
    [JSON.stringify({ tool_name: 'x'.repeat(201) }), /no tool_name/]
  ] as const) {
    const done = await hook(orch.project.root, input)
    assert.equal(done.code, 2, `${input}: ${done.stderr}`)
    assert.match(done.stderr, reason)
  }
  const huge = await hook(orch.project.root, JSON.stringify({ ...CALL, tool_input: { command: 'x'.repeat(1_100_000) } }))
  assert.equal(huge.code, 2)
  assert.match(huge.stderr, /larger than/)
  const all = (await orch.call('GET', '/api/approvals/history')).json
  assert.equal(all.pagination.total, 0, JSON.stringify(all))

  const nowhere = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-hook-none-'))
  try {
    const done = await hook(nowhere, JSON.stringify(CALL))
    assert.equal(done.code, 2)
    assert.match(done.stderr, /Denied: the Quartet orchestrator is not running for/)
  } finally {
    fs.rmSync(nowhere, { recursive: true, force: true })
  }
})

test('--deadline-seconds: no decision in time blocks (exit 2); a bad value blocks without asking', async () => {
  const orch = await startOrchestrator({ config: { approval: { api_decide: true } } })
  await orch.listen()
  const late = await runCli(['approval-hook', '--project', orch.project.root, '--deadline-seconds', '2'], {}, JSON.stringify(CALL))
  assert.equal(late.code, 2, late.stderr)
  assert.match(late.stderr, /no decision within 2 s/)
  const bad = await runCli(['approval-hook', '--project', orch.project.root, '--deadline-seconds', '1e9x'], {}, JSON.stringify(CALL))
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /--deadline-seconds must be a positive whole number/)
  const history = (await orch.call('GET', '/api/approvals')).json
  assert.equal(history.pending.length, 1, 'only the timed-out call asked')
})
