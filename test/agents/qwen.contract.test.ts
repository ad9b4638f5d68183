// Contract probes for Qwen Code (the real CLI, pinned in test/helpers/agent-clis.ts) against a scripted OpenAI Chat
// Completions server (--auth-type openai with OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL). What a Qwen driver
// would rely on; written up in docs/orchestrator-agents.md.
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
import { defaultSide, startModelServer, type ModelServer, type Scenario } from '../helpers/model-server/index.js'

const cli = await installAgentCli('qwen')
/** Every probe is bounded: the CLI run itself is killed sooner (runAgent's timeout). */
const LIMIT = { timeout: 60_000 }
const PROMPT = 'Task 4: write hello.txt (sprint context: DIRECTIVES-QWEN-4)'
/** The worktree posture: auto-approve edit tools. */
const WORKTREE = ['--approval-mode', 'auto-edit']
/** Managed auto-memory runs a background "memory extraction" agent (a model request with tools) after a session. */
const SETTINGS = { memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false } }

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
  settings: Record<string, unknown> = {}
): Promise<Played> {
  if (cli.skipped !== undefined) throw new Error(cli.skipped)
  const ws = makeWorkspace()
  const played = scenario(ws)
  // Should a memory agent run anyway, it is a side request, not a step of the scripted loop.
  const memory = (texts: string[]) => texts.some((text) => text.includes('memory extraction subagent'))
  const server = await startModelServer('openai', {
    ...played,
    side: { match: (r) => defaultSide.match(r) || memory(r.texts), reply: defaultSide.reply }
  })
  t.after(async () => {
    await server.close()
    ws.cleanup()
  })
  fs.mkdirSync(path.join(ws.home, '.qwen'))
  fs.writeFileSync(path.join(ws.home, '.qwen', 'settings.json'), JSON.stringify({ ...SETTINGS, ...settings }, null, 2))
  const env = { ...baseEnv(ws), OPENAI_API_KEY: 'sk-scripted', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: 'scripted-model' }
  const run = await runAgent(cli.bin, ['--auth-type', 'openai', '-o', 'stream-json', ...args, PROMPT], {
    cwd: ws.repo,
    env,
    leftover: ws.root
  })
  assert.equal(run.timedOut, false, explain(run, server))
  t.diagnostic(`exit ${run.code} in ${run.ms} ms; first model request ${startupMs(run, server) ?? '-'} ms after spawn`)
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

const SHELL = { name: 'run_shell_command', input: { command: 'touch touched.txt' } }

describe(
  `Qwen Code ${cli.version} (qwen -o stream-json) against a scripted Chat Completions server`,
  { skip: cli.skipped ?? false },
  () => {
    test(
      'worktree posture (--approval-mode auto-edit) writes and edits files; the result line reports usage and the session id',
      LIMIT,
      async (t) => {
        const readme = (ws: Workspace) => path.join(ws.repo, 'README.md')
        const edit = (ws: Workspace) => ({
          tools: [{ name: 'edit', input: { file_path: readme(ws), old_string: 'hello', new_string: 'hello, edited' } }]
        })
        const { ws, server, run, init, result } = await play(
          t,
          (ws) => ({
            turns: [
              { tools: [{ name: 'write_file', input: { file_path: path.join(ws.repo, 'hello.txt'), content: 'Hello from the model\n' } }] },
              edit(ws),
              { tools: [{ name: 'read_file', input: { file_path: readme(ws) } }] },
              edit(ws),
              { text: 'done' }
            ]
          }),
          WORKTREE
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.equal(ws.read('hello.txt'), 'Hello from the model\n', why)
        assert.equal(ws.read('README.md'), 'hello, edited\n', why)
        assert.ok(
          server.turnRequests()[0]?.request?.texts.some((text) => text.includes('DIRECTIVES-QWEN-4')),
          why
        )
        const results = toolResults(server)
        assert.match(results[0] ?? '', /Successfully created and wrote to new file/)
        // edit refuses a file it has not read in this session.
        assert.match(results[1] ?? '', /has not been read in this session/)
        assert.equal(init?.permission_mode, 'auto-edit')
        assert.equal(init?.model, 'scripted-model')
        assert.equal(result?.subtype, 'success')
        assert.equal(result?.is_error, false)
        assert.equal(result?.session_id, init?.session_id)
        assert.match(result?.session_id ?? '', /^[0-9a-f-]{36}$/)
        const usage = server.turnUsageReported()
        assert.deepEqual(result?.usage, {
          input_tokens: usage.input,
          output_tokens: usage.output,
          cache_read_input_tokens: 0,
          total_tokens: usage.input + usage.output
        })
        assert.equal(result?.total_cost_usd, undefined, 'no cost field')
        assert.deepEqual(result?.permission_denials, [])
      }
    )

    test(
      'default headless mode ("auto"): writes and shell commands are declined, listed in permission_denials, exit 0',
      LIMIT,
      async (t) => {
        const { ws, server, run, init, result } = await play(
          t,
          (ws) => ({
            turns: [
              { tools: [{ name: 'write_file', input: { file_path: path.join(ws.repo, 'hello.txt'), content: 'x\n' } }] },
              { tools: [SHELL] },
              { text: 'done' }
            ]
          }),
          []
        )
        assert.equal(run.code, 0, explain(run, server))
        assert.equal(init?.permission_mode, 'auto')
        assert.equal(ws.read('hello.txt'), undefined)
        assert.equal(ws.read('touched.txt'), undefined)
        assert.match(toolResults(server)[0] ?? '', /requires permission to use "write_file", but that permission was declined/)
        assert.deepEqual(
          result?.permission_denials?.map((d: any) => d.tool_name),
          ['write_file', 'run_shell_command']
        )
      }
    )

    test('auto-edit: a shell command is declined (permission_denials); a write OUTSIDE the workspace is NOT refused', LIMIT, async (t) => {
      const { ws, server, run, result } = await play(
        t,
        (ws) => ({
          turns: [
            { tools: [SHELL] },
            { tools: [{ name: 'write_file', input: { file_path: path.join(ws.outside, 'escape.txt'), content: 'x\n' } }] },
            { text: 'done' }
          ]
        }),
        WORKTREE
      )
      assert.equal(run.code, 0, explain(run, server))
      assert.equal(ws.read('touched.txt'), undefined)
      assert.match(toolResults(server)[0] ?? '', /requires permission to use "run_shell_command", but that permission was declined/)
      assert.equal(fs.readFileSync(path.join(ws.outside, 'escape.txt'), 'utf8'), 'x\n', 'auto-edit wrote outside the workspace')
      assert.deepEqual(
        result?.permission_denials?.map((d: any) => d.tool_name),
        ['run_shell_command']
      )
    })

    const hook = (command: string) => ({ hooks: { PreToolUse: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command }] }] } })
    const shell = (command: string) => ({ tools: [{ name: 'run_shell_command', input: { command } }] })

    test(
      'PreToolUse hook (settings.json) with --yolo: exit 2 blocks (stderr is the reason, a permission denial), exit 1 and 0 do not',
      LIMIT,
      async (t) => {
        const { ws, server, run, result } = await play(
          t,
          () => ({ turns: [shell('touch BLOCK-ME.txt'), shell('touch FAIL-ME.txt'), shell('touch plain.txt'), { text: 'done' }] }),
          ['--yolo'],
          hook(markerHook())
        )
        const why = explain(run, server)
        assert.equal(run.code, 0, why)
        assert.equal(ws.read('BLOCK-ME.txt'), undefined, why)
        assert.equal(ws.read('FAIL-ME.txt'), '', why)
        assert.equal(ws.read('plain.txt'), '', why)
        assert.equal(toolResults(server)[0], 'blocked by the approver')
        assert.deepEqual(
          result?.permission_denials?.map((d: any) => d.tool_input.command),
          ['touch BLOCK-ME.txt']
        )
        const inputs = hookInputs(ws)
        assert.equal(inputs.length, 3, why)
        assert.equal(inputs[0].hook_event_name, 'PreToolUse')
        assert.equal(inputs[0].permission_mode, 'yolo')
        assert.equal(inputs[0].tool_name, 'run_shell_command')
        assert.deepEqual(inputs[0].tool_input, { command: 'touch BLOCK-ME.txt' })
      }
    )

    test('PreToolUse hook: in auto-edit the shell is declined before any hook runs (a hook cannot approve it)', LIMIT, async (t) => {
      const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })
      const { ws, server, run } = await play(
        t,
        () => ({ turns: [shell('touch ALLOW-ME.txt'), { text: 'done' }] }),
        WORKTREE,
        hook(markerHook(allow))
      )
      assert.equal(run.code, 0, explain(run, server))
      assert.equal(ws.read('ALLOW-ME.txt'), undefined)
      assert.deepEqual(hookInputs(ws), [], 'the hook never ran')
    })

    test('the API answers 400: exit 1, the result line is an error (error_during_execution) with the message', LIMIT, async (t) => {
      const { server, run, result } = await play(
        t,
        () => ({ turns: [{ error: { status: 400, message: 'scripted failure 400' }, sticky: true }] }),
        WORKTREE
      )
      assert.equal(run.code, 1, explain(run, server))
      assert.equal(result?.subtype, 'error_during_execution')
      assert.equal(result?.is_error, true)
      assert.match(result?.error?.message ?? '', /\[API Error: 400 scripted failure 400\]/)
      assert.equal(server.turnRequests().length, 1)
    })

    test('the API answers 500 twice, then succeeds: Qwen retries (with backoff) and finishes, exit 0', LIMIT, async (t) => {
      const { ws, server, run } = await play(
        t,
        (ws) => ({
          turns: [
            { error: { status: 500, message: 'scripted failure 500' } },
            { error: { status: 500, message: 'scripted failure 500' } },
            { tools: [{ name: 'write_file', input: { file_path: path.join(ws.repo, 'hello.txt'), content: 'x\n' } }] },
            { text: 'done' }
          ]
        }),
        WORKTREE
      )
      assert.equal(run.code, 0, explain(run, server))
      assert.equal(ws.read('hello.txt'), 'x\n')
      assert.equal(server.turnsUsed(), 4)
    })
  }
)
