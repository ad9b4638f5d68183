// A real agent CLI in the `ask` posture, run by Quartet as a user would: `quartet init`, the agent's permissions set
// to "ask", `quartet serve` (the permission request reaches it), `quartet plan`, `quartet run`. The scripted model asks
// for a shell command the worktree posture does not allow. Claude Code calls Quartet's MCP permission tool; Codex runs
// its PreToolUse hook, Gemini CLI its BeforeTool hook, `quartet approval-hook` (each wired by the driver with the task id). The task shows
// AWAITING_APPROVAL until a human decides over the HTTP route. Used by run-<agent>-ask-<decision>.contract.test.ts (one
// file each: a run takes most of the runner's time per file on a busy machine).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { installAgentCli, type AgentCliInstall } from '../helpers/agent-clis.js'
import { startCli } from '../helpers/cli.js'
import { eventually } from '../helpers/orchestrator.js'
import type { Turn } from '../helpers/model-server/index.js'
import { OFF, project, tasksOf } from './quartet-run.js'

export type AskingAgent = 'claude' | 'codex' | 'gemini'

/** The pinned CLI, or why its tests are skipped. */
export async function askingCli(agent: AskingAgent): Promise<AgentCliInstall | { skipped: string; version: string }> {
  return OFF ? { skipped: OFF, version: '' } : await installAgentCli(agent)
}

/** A command the worktree posture does not run without asking (acceptEdits; Codex's hook sees every command). */
const RELEASE = `node -e "require('fs').writeFileSync('released.txt', 'released\\n')"`
const TASK = '## Task 1: Release\nFiles: released.txt\nGo: released.txt exists\n'

const ASK: Record<AskingAgent, Turn> = {
  // Thinking time before the first tool call: `quartet mcp` runs from source through tsx here (seconds on a busy
  // machine, not the built CLI's fraction of one), and Claude -p asks only a permission tool that is connected.
  claude: { tools: [{ name: 'Bash', input: { command: RELEASE, description: 'release' } }], delayMs: 8000 },
  codex: { tools: [{ name: 'exec_command', input: { cmd: RELEASE } }] },
  gemini: { tools: [{ name: 'run_shell_command', input: { command: RELEASE } }] }
}

/** The tool name the permission request carries (Codex's hook names its shell Bash, as Claude Code does). */
export const SHELL_TOOL: Record<AskingAgent, string> = { claude: 'Bash', codex: 'Bash', gemini: 'run_shell_command' }

export async function askAndDecide(t: TestContext, agent: AskingAgent, decision: 'allow' | 'deny') {
  const cli = await askingCli(agent)
  if (cli.skipped !== undefined) throw new Error(cli.skipped)
  const p = await project(t, agent, cli.bin, () => [ASK[agent], { text: 'done' }])
  const init = await p.quartet('init')
  assert.equal(init.code, 0, init.stderr)
  const configFile = path.join(p.ws.repo, '.quartet', 'config.json')
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'))
  config.agents[agent].permissions = 'ask'
  // The decision below goes through the HTTP route, which is off unless the project allows it.
  config.approval = { ...config.approval, api_decide: true }
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2))
  fs.writeFileSync(path.join(p.ws.repo, 'DIRECTIVES.md'), `# Release\n\n${TASK}`)
  const plan = await p.quartet('plan')
  assert.equal(plan.code, 0, `${plan.stdout}\n${plan.stderr}`)

  const server = await startCli(['serve', 'orchestrator', '--project', p.ws.repo, '--port', '0'], p.env, 90_000)
  t.after(() => server.stop())
  const url = server.urls.orchestrator!
  const token = fs.readFileSync(path.join(p.ws.repo, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const api = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {})
    })
    return { status: response.status, json: (await response.json()) as any }
  }

  const running = p.quartet('run')
  let ran: Awaited<typeof running> | undefined
  void running.then((r) => (ran = r))
  const why = () =>
    `${ran ? `${ran.stdout}\n${ran.stderr}\n` : ''}model requests: ${p.server.requests.length}\n${server.output().slice(-3000)}`
  const request = await eventually(
    async () => {
      if (ran) throw new Error(`the run ended before any permission request: ${why()}`)
      return ((await api('GET', '/api/approvals')).json.pending as any[])[0]
    },
    120_000,
    `${agent}'s permission request`
  )
  assert.equal(request.request.taskId, 's1-1', 'the request carries the task id')
  assert.equal(request.request.toolName, SHELL_TOOL[agent])
  assert.ok(request.request.summary.startsWith(`${SHELL_TOOL[agent]}: node -e`), request.request.summary)
  const tasks = (await api('GET', '/api/tasks')).json as Array<{ id: string; status: string }>
  assert.equal(tasks.find((task) => task.id === 's1-1')?.status, 'AWAITING_APPROVAL', why())
  const decided = await api(
    'POST',
    `/api/approvals/${request.request.id}/decision`,
    { decision, reason: `${decision} in the test` },
    {
      'idempotency-key': `k-${decision}`
    }
  )
  assert.equal(decided.status, 200, JSON.stringify(decided.json))
  const run = await running
  return { p, run, approvalId: request.request.id as string, why }
}

/**
 * The whole test of one agent and one decision, for a file of its own (run-<agent>-ask-<decision>): allowed, the
 * command's file is in the task's commit; denied, the task is NO_GO naming the human's denial and the command never ran.
 */
export async function askTest(agent: AskingAgent, decision: 'allow' | 'deny'): Promise<void> {
  const cli = await askingCli(agent)
  describe(`quartet run with ${agent} ${cli.version} in the ask posture`, { skip: cli.skipped ?? false }, () => {
    if (decision === 'allow') {
      test('allowed: the command runs and the task ends DONE with its commit', { timeout: 170_000 }, async (t) => {
        const { p, why } = await askAndDecide(t, agent, 'allow')
        const [task] = tasksOf(await p.status(0))
        assert.equal(task.status, 'DONE', `${task.reason}\n${why()}`)
        assert.equal(p.ws.git('show', `${task.commitSha}:released.txt`), 'released\n', why())
      })
      return
    }
    test('denied: the command never runs, the task ends NO_GO and its reason names the denial', { timeout: 170_000 }, async (t) => {
      const { p, approvalId, why } = await askAndDecide(t, agent, 'deny')
      const [task] = tasksOf(await p.status(1))
      assert.equal(task.status, 'NO_GO', why())
      const denied = new RegExp(
        `a human \\(tok:[0-9a-f]{12}\\) denied ${SHELL_TOOL[agent]}: node -e .*\\(${approvalId}: deny in the test\\)`
      )
      assert.match(task.reason, denied, why())
      const released = path.join(p.ws.repo, '.quartet', 'worktrees', 's1', 's1-1', 'released.txt')
      assert.ok(!fs.existsSync(released), 'the command did not run')
    })
  })
}
