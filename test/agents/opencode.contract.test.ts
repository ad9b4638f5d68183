// Contract probes for OpenCode (the real CLI, pinned in test/helpers/agent-clis.ts) against a scripted OpenAI Chat
// Completions server, reached through a custom @ai-sdk/openai-compatible provider in OPENCODE_CONFIG_CONTENT. What
// an OpenCode driver would rely on; written up in docs/orchestrator-agents.md.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { installAgentCli } from '../helpers/agent-clis.js'
import { baseEnv, explain, makeWorkspace, runAgent, startupMs, type AgentRun, type Workspace } from '../helpers/agent-run.js'
import { startModelServer, type ModelServer, type Scenario } from '../helpers/model-server/index.js'

const cli = await installAgentCli('opencode')
/** Every probe is bounded: the CLI run itself is killed sooner (runAgent's timeout). */
const LIMIT = { timeout: 60_000 }
const PROMPT = 'Task 9: write hello.txt (sprint context: DIRECTIVES-OPENCODE-9)'
/** The worktree posture: edits allowed, shell and anything outside the directory denied (denials do not stop the run). */
const WORKTREE_PERMISSION = { edit: 'allow', bash: 'deny', external_directory: 'deny' }

interface Played {
  ws: Workspace
  server: ModelServer
  run: AgentRun
  steps: any[]
  tools: any[]
}

async function play(t: TestContext, scenario: (ws: Workspace) => Scenario, permission?: Record<string, string>): Promise<Played> {
  if (cli.skipped !== undefined) throw new Error(cli.skipped)
  const ws = makeWorkspace()
  const server = await startModelServer('openai', scenario(ws))
  t.after(async () => {
    await server.close()
    ws.cleanup()
  })
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted',
        options: { baseURL: `${server.url}/v1`, apiKey: 'sk-scripted' },
        models: { 'scripted-model': { name: 'Scripted model' } }
      }
    },
    model: 'scripted/scripted-model',
    ...(permission ? { permission } : {})
  }
  const env = {
    ...baseEnv(ws),
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    // No models.dev download (unreachable here), no self-update; its start-up npm lookups of @opencode-ai/plugin
    // stay off the network.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    npm_config_offline: 'true'
  }
  const run = await runAgent(cli.bin, ['run', '--format', 'json', PROMPT], { cwd: ws.repo, env, leftover: ws.root, timeoutMs: 50_000 })
  assert.equal(run.timedOut, false, explain(run, server))
  t.diagnostic(`exit ${run.code} in ${run.ms} ms; first model request ${startupMs(run, server) ?? '-'} ms after spawn`)
  return {
    ws,
    server,
    run,
    steps: run.events.filter((e) => e.type === 'step_finish').map((e) => e.part),
    tools: run.events.filter((e) => e.type === 'tool_use').map((e) => e.part)
  }
}

/** The tool results of the conversation, as the last request to the model carried them. */
function toolResults(server: ModelServer): string[] {
  return server.turnRequests().at(-1)?.request?.toolResults ?? []
}

const TITLE = /You are a title generator/

describe(
  `OpenCode ${cli.version} (opencode run --format json) against a scripted Chat Completions server`,
  { skip: cli.skipped ?? false },
  () => {
    test(
      'writes a new file and edits one (no prior read needed); JSON events carry per-step tokens, cost 0, the session id',
      LIMIT,
      async (t) => {
        const { ws, server, run, steps, tools } = await play(
          t,
          (ws) => ({
            turns: [
              { tools: [{ name: 'write', input: { filePath: path.join(ws.repo, 'hello.txt'), content: 'Hello from the model\n' } }] },
              {
                tools: [
                  { name: 'edit', input: { filePath: path.join(ws.repo, 'README.md'), oldString: 'hello', newString: 'hello, edited' } }
                ]
              },
              { text: 'done' }
            ]
          }),
          WORKTREE_PERMISSION
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.equal(ws.read('hello.txt'), 'Hello from the model\n', why)
        assert.equal(ws.read('README.md'), 'hello, edited\n', why)
        assert.equal(toolResults(server)[1], 'Edit applied successfully.')
        assert.ok(
          server.turnRequests()[0]?.request?.texts.some((text) => text.includes('DIRECTIVES-OPENCODE-9')),
          why
        )
        // A session title is asked of the same model, without tools (answered as a side request).
        const sides = server.requests.filter((r) => r.answer.kind === 'side')
        assert.ok(
          sides.some((r) => r.request?.texts.some((text) => TITLE.test(text))),
          why
        )
        assert.deepEqual(
          tools.map((tool) => [tool.tool, tool.state?.status]),
          [
            ['write', 'completed'],
            ['edit', 'completed']
          ]
        )
        // One step_finish per model call of the agent loop, each with that call's tokens; cost 0 for a model without prices.
        const turns = server.turnRequests()
        assert.equal(steps.length, turns.length, why)
        steps.forEach((step, i) => {
          assert.equal(step.tokens.input, turns[i]?.usage?.input)
          assert.equal(step.tokens.output, turns[i]?.usage?.output)
          assert.equal(step.cost, 0)
        })
        assert.deepEqual(
          steps.map((s) => s.reason),
          ['tool-calls', 'tool-calls', 'stop']
        )
        const session = run.events[0]?.sessionID
        assert.match(session ?? '', /^ses_/)
        assert.ok(run.events.every((e) => e.sessionID === session))
      }
    )

    test(
      'default permissions: shell commands run without asking; a write outside the directory is auto-rejected and ends the run',
      LIMIT,
      async (t) => {
        const { ws, server, run, tools } = await play(t, (ws) => ({
          turns: [
            {
              tools: [{ name: 'bash', input: { command: `node -e "require('fs').writeFileSync('node.txt', 'x')"`, description: 'node' } }]
            },
            { tools: [{ name: 'write', input: { filePath: path.join(ws.outside, 'escape.txt'), content: 'x\n' } }] },
            { text: 'done' }
          ]
        }))
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.equal(ws.read('node.txt'), 'x', why)
        assert.deepEqual(fs.readdirSync(ws.outside), [], why)
        assert.match(run.stderr, /permission requested: external_directory \(.*\); auto-rejecting/)
        assert.equal(tools[1]?.state?.status, 'error')
        assert.match(tools[1]?.state?.error ?? '', /The user rejected permission to use this specific tool call/)
        assert.equal(server.turnsUsed(), 2, `the rejection ends the run: no further model request. ${why}`)
      }
    )

    test(
      'worktree posture (bash and external_directory "deny"): no shell tool, an outside write fails, the run goes on',
      LIMIT,
      async (t) => {
        const { ws, server, run } = await play(
          t,
          (ws) => ({
            turns: [
              { tools: [{ name: 'bash', input: { command: 'touch touched.txt', description: 'touch' } }] },
              { tools: [{ name: 'write', input: { filePath: path.join(ws.outside, 'escape.txt'), content: 'x\n' } }] },
              { tools: [{ name: 'write', input: { filePath: path.join(ws.repo, 'hello.txt'), content: 'x\n' } }] },
              { text: 'done' }
            ]
          }),
          WORKTREE_PERMISSION
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.ok(!server.turnRequests()[0]?.request?.tools.includes('bash'), why)
        assert.equal(ws.read('touched.txt'), undefined)
        assert.deepEqual(fs.readdirSync(ws.outside), [])
        assert.equal(ws.read('hello.txt'), 'x\n', why)
        const results = toolResults(server)
        assert.match(results[0] ?? '', /Model tried to call unavailable tool 'bash'/)
        assert.match(results[1] ?? '', /The user has specified a rule which prevents you from using this specific tool call/)
      }
    )

    test('the API answers 400: exit 1, an error event with the status and message', LIMIT, async (t) => {
      const { server, run } = await play(
        t,
        () => ({ turns: [{ error: { status: 400, message: 'scripted failure 400' }, sticky: true }] }),
        WORKTREE_PERMISSION
      )
      assert.equal(run.code, 1, explain(run, server))
      const error = run.events.find((e) => e.type === 'error')?.error
      assert.equal(error?.name, 'APIError')
      assert.equal(error?.data?.statusCode, 400)
      assert.equal(error?.data?.isRetryable, false)
      assert.equal(error?.data?.message, 'scripted failure 400')
      assert.equal(server.turnRequests().length, 1)
    })

    test('the API answers 500 (retry-after-ms: 10): retried 5 times, then exit 1 with an error event', LIMIT, async (t) => {
      const { server, run } = await play(
        t,
        () => ({ turns: [{ error: { status: 500, message: 'scripted failure 500', headers: { 'retry-after-ms': '10' } }, sticky: true }] }),
        WORKTREE_PERMISSION
      )
      assert.equal(run.code, 1, explain(run, server))
      assert.equal(server.turnRequests().length, 6, explain(run, server))
      const error = run.events.find((e) => e.type === 'error')?.error
      assert.equal(error?.data?.statusCode, 500)
      assert.equal(error?.data?.isRetryable, true)
    })
  }
)
