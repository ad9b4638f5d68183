// Contract probes for Claude Code (the real CLI, pinned in test/helpers/agent-clis.ts) against a scripted
// Anthropic Messages server: what the Claude driver relies on. Facts and argv are written up in
// docs/orchestrator-agents.md.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { installAgentCli } from '../helpers/agent-clis.js'
import {
  baseEnv,
  explain,
  hookInputs,
  makeWorkspace,
  markerHook,
  runAgent,
  startupMs,
  type AgentRun,
  type Workspace
} from '../helpers/agent-run.js'
import { startModelServer, type ModelServer, type Scenario } from '../helpers/model-server/index.js'

const cli = await installAgentCli('claude')
/** Every probe is bounded: the CLI run itself is killed sooner (runAgent's timeout). */
const LIMIT = { timeout: 60_000 }
const PERMISSION_MCP = path.join(import.meta.dirname, 'fixtures', 'permission-mcp.mjs')
const PROMPT = 'Task 7: write hello.txt saying hello (sprint context: DIRECTIVES-CLAUDE-7)'
/** The worktree posture: edits inside the working directory without asking. */
const WORKTREE = ['--permission-mode', 'acceptEdits']
/** A shell command Claude Code does not auto-approve in acceptEdits (file-system commands such as touch it does). */
const NEEDS_APPROVAL = `node -e "require('fs').writeFileSync('node.txt', 'x')"`

interface Played {
  ws: Workspace
  server: ModelServer
  run: AgentRun
  init: any
  result: any
}

async function play(
  t: TestContext,
  scenario: (ws: Workspace) => Scenario,
  args: string[],
  options: { env?: (ws: Workspace) => Record<string, string>; files?: Record<string, string> } = {}
): Promise<Played> {
  if (cli.skipped !== undefined) throw new Error(cli.skipped)
  const ws = makeWorkspace(options.files)
  const server = await startModelServer('anthropic', scenario(ws))
  t.after(async () => {
    await server.close()
    ws.cleanup()
  })
  const env = {
    ...baseEnv(ws),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env?.(ws)
  }
  const run = await runAgent(cli.bin, ['-p', PROMPT, '--output-format', 'stream-json', '--verbose', ...args], {
    cwd: ws.repo,
    env,
    leftover: ws.root
  })
  assert.equal(run.timedOut, false, explain(run, server))
  const startup = startupMs(run, server)
  t.diagnostic(`exit ${run.code} in ${run.ms} ms; first model request ${startup ?? '-'} ms after spawn`)
  return {
    ws,
    server,
    run,
    init: run.events.find((e) => e.type === 'system' && e.subtype === 'init'),
    result: run.events.find((e) => e.type === 'result')
  }
}

/** The tool results of the conversation, as the last request to the model carried them. */
function toolResults(server: ModelServer): string[] {
  return server.turnRequests().at(-1)?.request?.toolResults ?? []
}

describe(
  `Claude Code ${cli.version} (claude -p, stream-json) against a scripted Anthropic Messages server`,
  { skip: cli.skipped ?? false },
  () => {
    test(
      'worktree posture (--permission-mode acceptEdits) writes a new file; the result line reports usage, cost and session id',
      LIMIT,
      async (t) => {
        const { ws, server, run, init, result } = await play(
          t,
          (ws) => ({
            turns: [
              { tools: [{ name: 'Write', input: { file_path: path.join(ws.repo, 'hello.txt'), content: 'Hello from the model\n' } }] },
              { text: 'done' }
            ]
          }),
          WORKTREE
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.equal(ws.read('hello.txt'), 'Hello from the model\n', why)
        // The prompt (with its sprint context) reached the model; the tool result came back on the next request.
        assert.ok(
          server.turnRequests()[0]?.request?.texts.some((text) => text.includes('DIRECTIVES-CLAUDE-7')),
          why
        )
        assert.match(toolResults(server)[0] ?? '', /File created successfully/)
        assert.equal(server.unanswered().filter((r) => r.request).length, 0, why)
        // stream-json: init line (session id, permission mode) … result line (usage, cost, denials).
        assert.equal(init?.permissionMode, 'acceptEdits')
        assert.equal(init?.apiKeySource, 'ANTHROPIC_API_KEY')
        assert.equal(result?.subtype, 'success')
        assert.equal(result?.is_error, false)
        assert.equal(result?.session_id, init?.session_id)
        assert.match(result?.session_id ?? '', /^[0-9a-f-]{36}$/)
        const usage = server.turnUsageReported()
        assert.equal(result?.usage?.input_tokens, usage.input)
        assert.equal(result?.usage?.output_tokens, usage.output)
        assert.equal(result?.usage?.cache_read_input_tokens, 0)
        assert.equal(typeof result?.total_cost_usd, 'number')
        assert.ok(result.total_cost_usd > 0, 'Claude Code prices the usage itself (total_cost_usd)')
        assert.deepEqual(result?.permission_denials, [])
        assert.equal(result?.num_turns, 2)
      }
    )

    test('edits an existing file (Read, then Edit: Edit refuses a file it has not read)', LIMIT, async (t) => {
      const { ws, server, run } = await play(
        t,
        (ws) => ({
          turns: [
            { tools: [{ name: 'Read', input: { file_path: path.join(ws.repo, 'README.md') } }] },
            {
              tools: [
                { name: 'Edit', input: { file_path: path.join(ws.repo, 'README.md'), old_string: 'hello', new_string: 'hello, edited' } }
              ]
            },
            { text: 'done' }
          ]
        }),
        WORKTREE
      )
      assert.equal(run.code, 0, explain(run, server))
      assert.equal(ws.read('README.md'), 'hello, edited\n', explain(run, server))
      assert.match(ws.git('status', '--short'), /M README\.md/)
    })

    test(
      'default permission mode: headless Write is refused, the CLI still exits 0, the result lists permission_denials',
      LIMIT,
      async (t) => {
        const { ws, server, run, result } = await play(
          t,
          (ws) => ({
            turns: [{ tools: [{ name: 'Write', input: { file_path: path.join(ws.repo, 'hello.txt'), content: 'x\n' } }] }, { text: 'done' }]
          }),
          []
        )
        assert.equal(run.code, 0, explain(run, server))
        assert.equal(ws.read('hello.txt'), undefined)
        assert.match(toolResults(server)[0] ?? '', /Claude requested permissions to write to .*hello\.txt, but you haven't granted it yet/)
        assert.equal(result?.is_error, false)
        assert.deepEqual(
          result?.permission_denials?.map((d: any) => d.tool_name),
          ['Write']
        )
      }
    )

    test(
      'acceptEdits: writes outside the working directory and shell commands needing approval are refused; touch runs',
      LIMIT,
      async (t) => {
        const { ws, server, run, result } = await play(
          t,
          (ws) => ({
            turns: [
              { tools: [{ name: 'Write', input: { file_path: path.join(ws.outside, 'escape.txt'), content: 'x\n' } }] },
              { tools: [{ name: 'Bash', input: { command: NEEDS_APPROVAL, description: 'write with node' } }] },
              {
                tools: [
                  { name: 'Bash', input: { command: `echo x > ${path.join(ws.outside, 'redirect.txt')}`, description: 'redirect outside' } }
                ]
              },
              { tools: [{ name: 'Bash', input: { command: 'touch touched.txt', description: 'touch' } }] },
              { tools: [{ name: 'Bash', input: { command: 'echo x > echoed.txt', description: 'redirect inside' } }] },
              { tools: [{ name: 'Bash', input: { command: 'git status --short', description: 'status' } }] },
              { text: 'done' }
            ]
          }),
          WORKTREE
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.deepEqual(fs.readdirSync(ws.outside), [], why)
        assert.equal(ws.read('node.txt'), undefined, why)
        assert.equal(ws.read('touched.txt'), '', why)
        assert.equal(ws.read('echoed.txt'), 'x\n', why)
        const results = toolResults(server)
        assert.match(results[0] ?? '', /requested permissions to write to/)
        assert.match(results[1] ?? '', /This command requires approval/)
        assert.match(results[2] ?? '', /Output redirection to .* was blocked/)
        assert.match(results[5] ?? '', /\?\? echoed\.txt/)
        assert.deepEqual(
          result?.permission_denials?.map((d: any) => d.tool_name),
          ['Write', 'Bash', 'Bash']
        )
      }
    )

    for (const decision of ['allow', 'deny'] as const) {
      test(`--permission-prompt-tool (an MCP tool) decides a command needing approval: ${decision}`, LIMIT, async (t) => {
        const { ws, server, run, result } = await play(
          t,
          () => ({
            turns: [
              // acceptEdits allows touch: it never reaches the permission tool.
              { tools: [{ name: 'Bash', input: { command: 'touch touched.txt', description: 'touch' } }] },
              { tools: [{ name: 'Bash', input: { command: NEEDS_APPROVAL, description: 'write with node' } }] },
              { text: 'done' }
            ]
          }),
          [
            ...WORKTREE,
            '--mcp-config',
            JSON.stringify({ mcpServers: { perm: { command: process.execPath, args: [PERMISSION_MCP] } } }),
            '--permission-prompt-tool',
            'mcp__perm__approve'
          ],
          { env: (ws) => ({ PERMISSION_DECISION: decision, PERMISSION_LOG: path.join(ws.root, 'permission.log') }) }
        )
        const log = path.join(ws.root, 'permission.log')
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        // The permission request reached the tool: the tool name and its input, and Claude's tool_use id.
        const asked = fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
        assert.equal(ws.read('touched.txt'), '', why)
        assert.equal(asked.length, 1, why)
        assert.equal(asked[0].tool, 'approve')
        assert.equal(asked[0].arguments.tool_name, 'Bash')
        assert.equal(asked[0].arguments.input.command, NEEDS_APPROVAL)
        assert.match(asked[0].arguments.tool_use_id, /^toolu_/)
        if (decision === 'allow') {
          assert.equal(ws.read('node.txt'), 'x', why)
          assert.deepEqual(result?.permission_denials, [])
        } else {
          assert.equal(ws.read('node.txt'), undefined, why)
          assert.equal(toolResults(server)[1], 'Denied by the scripted approver')
          assert.deepEqual(
            result?.permission_denials?.map((d: any) => d.tool_name),
            ['Bash']
          )
        }
      })
    }

    test(
      'a permission MCP server that answers initialize late (3 s): -p does not wait, the request fails and the CLI exits 1',
      LIMIT,
      async (t) => {
        const { ws, server, run } = await play(
          t,
          () => ({
            turns: [{ tools: [{ name: 'Bash', input: { command: NEEDS_APPROVAL, description: 'write with node' } }] }, { text: 'done' }]
          }),
          [
            ...WORKTREE,
            '--mcp-config',
            JSON.stringify({ mcpServers: { perm: { command: process.execPath, args: [PERMISSION_MCP] } } }),
            '--permission-prompt-tool',
            'mcp__perm__approve'
          ],
          { env: () => ({ PERMISSION_DECISION: 'allow', PERMISSION_STARTUP_DELAY_MS: '3000' }) }
        )
        assert.equal(run.code, 1, explain(run, server))
        assert.equal(ws.read('node.txt'), undefined)
        assert.match(run.stderr, /MCP tool mcp__perm__approve \(passed via --permission-prompt-tool\) not found/)
      }
    )

    test(
      'PreToolUse hook (--settings) decides per call: exit 2 blocks, exit 1 does not, JSON permissionDecision "allow" approves',
      LIMIT,
      async (t) => {
        const allow = JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'approved' }
        })
        const bash = (command: string) => ({ tools: [{ name: 'Bash', input: { command, description: 'hooked' } }] })
        const approved = `node -e "require('fs').writeFileSync('ALLOW-ME.txt', '')"`
        const { ws, server, run, result } = await play(
          t,
          () => ({ turns: [bash('touch BLOCK-ME.txt'), bash('touch FAIL-ME.txt'), bash(approved), { text: 'done' }] }),
          [
            ...WORKTREE,
            '--settings',
            JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: markerHook(allow) }] }] } })
          ]
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        // exit 2: blocked, its stderr is what the model gets, and it is a permission denial in the result line.
        assert.equal(ws.read('BLOCK-ME.txt'), undefined, why)
        assert.match(toolResults(server)[0] ?? '', /^PreToolUse:Bash hook error: \[[\s\S]*\]: blocked by the approver\n$/)
        // exit 1: a non-blocking hook error, the command runs (a "deny" with exit 1 is ignored).
        assert.equal(ws.read('FAIL-ME.txt'), '', why)
        // JSON allow: approves a command acceptEdits alone would refuse.
        assert.equal(ws.read('ALLOW-ME.txt'), '', why)
        assert.deepEqual(
          result?.permission_denials?.map((d: any) => d.tool_input.command),
          ['touch BLOCK-ME.txt']
        )
        // What the hook gets on stdin: the tool call, the session and the permission mode.
        const inputs = hookInputs(ws)
        assert.equal(inputs.length, 3, why)
        assert.equal(inputs[0].hook_event_name, 'PreToolUse')
        assert.equal(inputs[0].tool_name, 'Bash')
        assert.deepEqual(inputs[0].tool_input, { command: 'touch BLOCK-ME.txt', description: 'hooked' })
        assert.equal(inputs[0].permission_mode, 'acceptEdits')
        assert.equal(inputs[0].session_id, result?.session_id)
        assert.match(inputs[0].tool_use_id, /^toolu_/)
      }
    )

    for (const status of [529, 429]) {
      test(
        `the API answers ${status}: exit 1, the result line carries is_error and api_error_status; CLAUDE_CODE_MAX_RETRIES bounds retries`,
        LIMIT,
        async (t) => {
          const { server, run, result } = await play(
            t,
            () => ({ turns: [{ error: { status, message: `scripted failure ${status}` }, sticky: true }] }),
            WORKTREE,
            {
              env: () => ({ CLAUDE_CODE_MAX_RETRIES: '1' })
            }
          )
          const why = explain(run, server)
          assert.equal(run.code, 1, why)
          assert.equal(server.turnRequests().length, 2, `one try and one retry: ${why}`)
          assert.equal(result?.is_error, true)
          assert.equal(result?.api_error_status, status)
          assert.match(result?.result ?? '', new RegExp(`scripted failure ${status}`))
          assert.deepEqual(result?.usage?.input_tokens, 0)
          const assistant = run.events.find((e) => e.type === 'assistant')
          assert.equal(assistant?.error, status === 429 ? 'rate_limit' : 'server_error')
        }
      )
    }
  }
)
