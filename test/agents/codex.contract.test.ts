// Contract probes for Codex CLI (the real CLI, pinned in test/helpers/agent-clis.ts) against a scripted OpenAI
// Responses server, reached through a model provider in a temporary CODEX_HOME/config.toml. What the Codex driver
// relies on; written up in docs/orchestrator-agents.md.
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

const cli = await installAgentCli('codex')
/** Every probe is bounded: the CLI run itself is killed sooner (runAgent's timeout). */
const LIMIT = { timeout: 60_000 }
const PROMPT = 'Task 3: write hello.txt (sprint context: DIRECTIVES-CODEX-3)'
/** A model in Codex's bundled catalogue (an unknown name works too, with a warning item and no apply_patch tool). */
const MODEL = 'gpt-5.5'
/** The worktree posture: the workspace-write sandbox (exec's approval policy is always "never"). */
const WORKTREE = ['-s', 'workspace-write']
/** The workspace-write sandbox also lets commands write /tmp and $TMPDIR; these tests live there, so they exclude both. */
const NO_TMP = ['-c', 'sandbox_workspace_write.exclude_slash_tmp=true', '-c', 'sandbox_workspace_write.exclude_tmpdir_env_var=true']

function patch(...lines: string[]): string {
  return ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n')
}

interface Played {
  ws: Workspace
  server: ModelServer
  run: AgentRun
  thread: string | undefined
  completed: any
  failed: any
  items: any[]
}

async function play(
  t: TestContext,
  scenario: (ws: Workspace) => Scenario,
  args: string[],
  options: { toml?: string } = {}
): Promise<Played> {
  if (cli.skipped !== undefined) throw new Error(cli.skipped)
  const ws = makeWorkspace()
  const server = await startModelServer('openai', scenario(ws))
  t.after(async () => {
    await server.close()
    ws.cleanup()
  })
  const codexHome = path.join(ws.home, '.codex')
  fs.mkdirSync(codexHome)
  fs.writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      `model = "${MODEL}"`,
      'model_provider = "scripted"',
      '',
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = "${server.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      options.toml ?? ''
    ].join('\n')
  )
  const env = { ...baseEnv(ws), CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'sk-scripted' }
  const run = await runAgent(cli.bin, ['exec', '--json', ...args, PROMPT], { cwd: ws.repo, env, leftover: ws.root })
  assert.equal(run.timedOut, false, explain(run, server))
  t.diagnostic(`exit ${run.code} in ${run.ms} ms; first model request ${startupMs(run, server) ?? '-'} ms after spawn`)
  return {
    ws,
    server,
    run,
    thread: run.events.find((e) => e.type === 'thread.started')?.thread_id,
    completed: run.events.find((e) => e.type === 'turn.completed'),
    failed: run.events.find((e) => e.type === 'turn.failed'),
    items: run.events.filter((e) => e.type === 'item.completed').map((e) => e.item)
  }
}

/** The tool results of the conversation, as the last request to the model carried them. */
function toolResults(server: ModelServer): string[] {
  return server.turnRequests().at(-1)?.request?.toolResults ?? []
}

describe(`Codex ${cli.version} (codex exec --json) against a scripted OpenAI Responses server`, { skip: cli.skipped ?? false }, () => {
  test(
    'worktree posture (-s workspace-write) writes a new file with apply_patch; --json reports usage and the thread id',
    LIMIT,
    async (t) => {
      const { ws, server, run, thread, completed, items } = await play(
        t,
        () => ({
          turns: [{ tools: [{ name: 'apply_patch', input: patch('*** Add File: hello.txt', '+Hello from the model') }] }, { text: 'done' }]
        }),
        WORKTREE
      )
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.equal(ws.read('hello.txt'), 'Hello from the model\n', why)
      const first = server.turnRequests()[0]?.request
      assert.ok(
        first?.texts.some((text) => text.includes('DIRECTIVES-CODEX-3')),
        why
      )
      assert.ok(first?.tools.includes('apply_patch') && first.tools.includes('exec_command'), `tools offered: ${first?.tools.join(', ')}`)
      assert.match(toolResults(server)[0] ?? '', /Success\. Updated the following files:\nA hello\.txt/)
      assert.match(thread ?? '', /^[0-9a-f-]{36}$/)
      const change = items.find((i) => i.type === 'file_change')
      assert.deepEqual(change?.changes, [{ path: path.join(ws.repo, 'hello.txt'), kind: 'add' }])
      assert.equal(items.find((i) => i.type === 'agent_message')?.text, 'done')
      // turn.completed carries the usage summed over the turn's requests; no cost.
      const usage = server.turnUsageReported()
      assert.deepEqual(completed?.usage, {
        input_tokens: usage.input,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        output_tokens: usage.output,
        reasoning_output_tokens: 0
      })
    }
  )

  test('edits an existing file with apply_patch (Update File)', LIMIT, async (t) => {
    const { ws, server, run } = await play(
      t,
      () => ({
        turns: [
          { tools: [{ name: 'apply_patch', input: patch('*** Update File: README.md', '@@', '-hello', '+hello, edited') }] },
          { text: 'done' }
        ]
      }),
      WORKTREE
    )
    assert.equal(run.code, 0, explain(run, server))
    assert.equal(ws.read('README.md'), 'hello, edited\n', explain(run, server))
  })

  test('default sandbox (read-only): the patch is rejected, the CLI still exits 0', LIMIT, async (t) => {
    const { ws, server, run, items } = await play(
      t,
      () => ({ turns: [{ tools: [{ name: 'apply_patch', input: patch('*** Add File: hello.txt', '+x') }] }, { text: 'done' }] }),
      []
    )
    assert.equal(run.code, 0, explain(run, server))
    assert.equal(ws.read('hello.txt'), undefined)
    assert.match(toolResults(server)[0] ?? '', /patch rejected: writing is blocked by read-only sandbox/)
    assert.equal(
      items.find((i) => i.type === 'file_change'),
      undefined,
      'a rejected patch leaves no item in --json'
    )
  })

  test(
    'workspace-write: commands run sandboxed inside the workspace; writes outside fail; escalation is refused (approval never)',
    LIMIT,
    async (t) => {
      const { ws, server, run, items } = await play(
        t,
        (ws) => ({
          turns: [
            { tools: [{ name: 'exec_command', input: { cmd: 'echo inside > inside.txt && cat inside.txt' } }] },
            { tools: [{ name: 'exec_command', input: { cmd: `echo x > ${path.join(ws.outside, 'shell.txt')}` } }] },
            { tools: [{ name: 'apply_patch', input: patch('*** Add File: ../outside/patch.txt', '+x') }] },
            {
              tools: [
                {
                  name: 'exec_command',
                  input: {
                    cmd: `echo x > ${path.join(ws.outside, 'escalated.txt')}`,
                    sandbox_permissions: 'require_escalated',
                    justification: 'May I?'
                  }
                }
              ]
            },
            { text: 'done' }
          ]
        }),
        [...WORKTREE, ...NO_TMP, '-c', 'approval_policy="on-request"']
      )
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.equal(ws.read('inside.txt'), 'inside\n', why)
      assert.deepEqual(fs.readdirSync(ws.outside), [], why)
      const results = toolResults(server)
      assert.match(results[1] ?? '', /Read-only file system/)
      assert.match(results[2] ?? '', /patch rejected: writing outside of the project/)
      assert.match(results[3] ?? '', /approval policy is Never; reject command/)
      const commands = items.filter((i) => i.type === 'command_execution')
      assert.equal(commands[0]?.aggregated_output, 'inside\n')
      assert.equal(commands[0]?.exit_code, 0)
    }
  )

  const hook = (command: string) =>
    [
      '[[hooks.PreToolUse]]',
      'matcher = "Bash|apply_patch"',
      '[[hooks.PreToolUse.hooks]]',
      'type = "command"',
      `command = '''${command}'''`
    ].join('\n')
  const exec = (cmd: string) => ({ tools: [{ name: 'exec_command', input: { cmd } }] })

  test(
    'PreToolUse hook (config.toml, --dangerously-bypass-hook-trust): exit 2 blocks (stderr is the reason), exit 1 does not',
    LIMIT,
    async (t) => {
      const { ws, server, run, items } = await play(
        t,
        () => ({
          turns: [
            exec('touch BLOCK-ME.txt'),
            { tools: [{ name: 'apply_patch', input: patch('*** Add File: BLOCK-ME-patch.txt', '+x') }] },
            exec('touch FAIL-ME.txt'),
            { text: 'done' }
          ]
        }),
        [...WORKTREE, '--dangerously-bypass-hook-trust'],
        { toml: hook(markerHook()) }
      )
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.equal(ws.read('BLOCK-ME.txt'), undefined, why)
      assert.equal(ws.read('BLOCK-ME-patch.txt'), undefined, why)
      assert.equal(ws.read('FAIL-ME.txt'), '', why)
      const results = toolResults(server)
      assert.equal(results[0], 'Command blocked by PreToolUse hook: blocked by the approver. Command: touch BLOCK-ME.txt')
      assert.match(results[1] ?? '', /^Command blocked by PreToolUse hook: blocked by the approver\. Command: \*\*\* Begin Patch/)
      const inputs = hookInputs(ws)
      assert.equal(inputs.length, 3, why)
      assert.equal(inputs[0].hook_event_name, 'PreToolUse')
      assert.equal(inputs[0].tool_name, 'Bash')
      assert.deepEqual(inputs[0].tool_input, { command: 'touch BLOCK-ME.txt' })
      assert.equal(inputs[0].permission_mode, 'bypassPermissions')
      assert.equal(inputs[1].tool_name, 'apply_patch')
      assert.match(inputs[1].tool_input.command, /^\*\*\* Begin Patch/)
      // The trust bypass is announced as an error item in --json.
      assert.ok(items.some((i) => i.type === 'error' && /dangerously-bypass-hook-trust/.test(i.message)))
    }
  )

  test(
    'PreToolUse hook from -c hooks.PreToolUse=… (as the ask posture wires it) runs; past its timeout it does NOT block: the command runs',
    LIMIT,
    async (t) => {
      const slow = `cat > /dev/null; touch "$HOME/../hook-started"; sleep 20; exit 0`
      const inline = `[{matcher = "Bash", hooks = [{type = "command", command = ${JSON.stringify(slow)}, timeout = 2}]}]`
      const { ws, server, run } = await play(t, () => ({ turns: [exec('touch LATE.txt'), { text: 'done' }] }), [
        ...WORKTREE,
        '--dangerously-bypass-hook-trust',
        '-c',
        `hooks.PreToolUse=${inline}`
      ])
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.ok(fs.existsSync(path.join(ws.root, 'hook-started')), `the hook ran: ${why}`)
      // Fail-open: so the ask posture gives Quartet's hook a timeout longer than the hook's own deadline.
      assert.equal(ws.read('LATE.txt'), '', `a timed-out hook lets the command run: ${why}`)
    }
  )

  test('PreToolUse hook: without --dangerously-bypass-hook-trust an (untrusted) hook does not run at all', LIMIT, async (t) => {
    const { ws, server, run } = await play(t, () => ({ turns: [exec('touch BLOCK-ME.txt'), { text: 'done' }] }), WORKTREE, {
      toml: hook(markerHook())
    })
    assert.equal(run.code, 0, explain(run, server))
    assert.equal(ws.read('BLOCK-ME.txt'), '', 'the command ran')
    assert.deepEqual(hookInputs(ws), [], 'the hook was skipped silently')
  })

  for (const [status, message] of [
    [500, /high demand/],
    [429, /exceeded retry limit, last status: 429/],
    [400, /scripted failure 400/]
  ] as const) {
    test(`the API answers ${status}: exit 1, an error event and turn.failed`, LIMIT, async (t) => {
      const { server, run, failed } = await play(
        t,
        () => ({ turns: [{ error: { status, message: `scripted failure ${status}` }, sticky: true }] }),
        WORKTREE
      )
      const why = explain(run, server)
      assert.equal(run.code, 1, why)
      assert.equal(server.turnRequests().length, 1, `no retry with request_max_retries = 0: ${why}`)
      assert.match(failed?.error?.message ?? '', message)
      assert.match(run.events.find((e) => e.type === 'error')?.message ?? '', message)
    })
  }
})
