/**
 * A run whose agent asks a human inside the run, over HTTP with its QUARTET_TASK_ID (as `quartet mcp`'s permission
 * tool and the PreToolUse hook do): for run-approval*.test.ts.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eventually, startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

// The agent asks for `make release`, and only runs it (here: records it in released.txt) when allowed.
const AGENT_SCRIPT = `
import fs from 'node:fs'
const { url, token } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json' }
const body = { toolName: 'Bash', input: { command: 'make release' }, requester: 'agent-test', taskId: process.env.QUARTET_TASK_ID }
let entry = await (await fetch(url + '/api/approvals/requests', { method: 'POST', headers, body: JSON.stringify(body) })).json()
console.log('asked ' + entry.request.id)
const wait = () => fetch(url + '/api/approvals/' + entry.request.id + '/wait?timeout=25', { headers })
while (entry.effect === null) entry = await (await wait()).json()
if (entry.effect === 'allow') fs.writeFileSync('released.txt', 'make release ran\\n')
console.log('answer ' + entry.effect)
`

export async function startAskingRun(engine: Record<string, unknown> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-run-approval-'))
  const script = path.join(dir, 'agent.mjs')
  const endpoint = path.join(dir, 'endpoint.json')
  fs.writeFileSync(script, AGENT_SCRIPT)
  const orch = await startOrchestrator({
    git: true,
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: {
      agents: { asker: { kind: 'command', argv: [process.execPath, script, endpoint] } },
      default_agent: 'asker',
      engine: { max_attempts: 1, ...engine },
      approval: { api_decide: true, default_expiry_seconds: 3600, expiry_action: 'deny', require_for_risk: ['critical'] }
    },
    directives: '# Release\n\n## Task 1: release\nRelease it.\n'
  })
  fs.writeFileSync(endpoint, JSON.stringify({ url: await orch.listen(), token: orch.token }))
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  assert.equal((await orch.call('POST', '/api/start')).status, 202)
  const approval = await eventually(
    async () => {
      const pending = (await orch.call('GET', '/api/approvals')).json.pending as any[]
      return pending.length === 1 && pending[0]
    },
    60_000,
    "the agent's request"
  )
  return { orch, approvalId: approval.request.id as string, approval }
}

export async function taskStatus(orch: OrchestratorHarness): Promise<string | undefined> {
  return ((await orch.call('GET', '/api/tasks')).json as Array<{ id: string; status: string }>).find((t) => t.id === 's1-1')?.status
}

export async function sprintEnded(orch: OrchestratorHarness): Promise<void> {
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  await eventually(
    async () => ['COMPLETE', 'ABORTED'].includes((await orch.repositories.sprints.latest(projectId))?.status ?? ''),
    60_000,
    'the sprint to end'
  )
}

export async function taskEvents(orch: OrchestratorHarness) {
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  return (await orch.repositories.events.readAfter(projectId, 0, 500)).filter((e) => e.taskId === 's1-1')
}
