// Contract probes for Gemini CLI (the real CLI, pinned in test/helpers/agent-clis.ts) against a scripted Gemini API
// server (GOOGLE_GEMINI_BASE_URL, API-key auth). What the Gemini driver relies on; written up in
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

const cli = await installAgentCli('gemini')
/** Every probe is bounded: the CLI run itself is killed sooner (runAgent's timeout). */
const LIMIT = { timeout: 60_000 }
const PROMPT = 'Task 5: write hello.txt (sprint context: DIRECTIVES-GEMINI-5)'
/** A fixed model: with the default ("auto") every turn starts with a routing classifier request to another model. */
const MODEL = 'gemini-2.5-pro'
/** The worktree posture: auto-approve edit tools, trust the folder for this run. */
const WORKTREE = ['--approval-mode', 'auto_edit', '--skip-trust']

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
  args: string[] | ((ws: Workspace) => string[]),
  options: { settings?: Record<string, unknown>; files?: (ws: Workspace) => Record<string, string> } = {}
): Promise<Played> {
  if (cli.skipped !== undefined) throw new Error(cli.skipped)
  const ws = makeWorkspace()
  const server = await startModelServer('gemini', scenario(ws))
  t.after(async () => {
    await server.close()
    ws.cleanup()
  })
  fs.mkdirSync(path.join(ws.home, '.gemini'))
  const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, ...options.settings }
  fs.writeFileSync(path.join(ws.home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2))
  for (const [file, content] of Object.entries(options.files?.(ws) ?? {})) fs.writeFileSync(file, content)
  const env = { ...baseEnv(ws), GEMINI_API_KEY: 'scripted-key', GOOGLE_GEMINI_BASE_URL: server.url }
  const extra = typeof args === 'function' ? args(ws) : args
  const run = await runAgent(cli.bin, ['-p', PROMPT, '-o', 'stream-json', '-m', MODEL, ...extra], { cwd: ws.repo, env, leftover: ws.root })
  assert.equal(run.timedOut, false, explain(run, server))
  t.diagnostic(`exit ${run.code} in ${run.ms} ms; first model request ${startupMs(run, server) ?? '-'} ms after spawn`)
  return { ws, server, run, init: run.events.find((e) => e.type === 'init'), result: run.events.find((e) => e.type === 'result') }
}

/** The tool results of the conversation, as the last request to the model carried them. */
function toolResults(server: ModelServer): string[] {
  return server.turnRequests().at(-1)?.request?.toolResults ?? []
}

/** A write_file call (a path relative to the workspace, or absolute). */
function write(file = 'hello.txt', content = 'Hello from the model\n') {
  return { name: 'write_file', input: { file_path: file, content } }
}

describe(`Gemini CLI ${cli.version} (gemini -p, stream-json) against a scripted Gemini API server`, { skip: cli.skipped ?? false }, () => {
  test('an untrusted folder: exit 55 before any model request', LIMIT, async (t) => {
    const { server, run } = await play(t, () => ({ turns: [{ text: 'done' }] }), ['--approval-mode', 'auto_edit'])
    assert.equal(run.code, 55, explain(run, server))
    assert.match(run.stderr, /Gemini CLI is not running in a trusted directory/)
    assert.equal(server.requests.length, 0)
  })

  test(
    'worktree posture (--approval-mode auto_edit --skip-trust) writes a new file; the result line reports token stats',
    LIMIT,
    async (t) => {
      const { ws, server, run, init, result } = await play(t, () => ({ turns: [{ tools: [write()] }, { text: 'done' }] }), WORKTREE)
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.equal(ws.read('hello.txt'), 'Hello from the model\n', why)
      const first = server.turnRequests()[0]?.request
      assert.ok(
        first?.texts.some((text) => text.includes('DIRECTIVES-GEMINI-5')),
        why
      )
      assert.ok(first?.tools.includes('write_file') && first.tools.includes('replace'), `tools offered: ${first?.tools.join(', ')}`)
      assert.ok(!first?.tools.includes('run_shell_command'), 'no shell tool in auto_edit headless')
      assert.match(toolResults(server)[0] ?? '', /Successfully created and wrote to new file/)
      assert.equal(init?.model, MODEL)
      assert.match(init?.session_id ?? '', /^[0-9a-f-]{36}$/)
      const toolUse = run.events.find((e) => e.type === 'tool_use')
      assert.equal(toolUse?.tool_name, 'write_file')
      assert.equal(run.events.find((e) => e.type === 'tool_result')?.status, 'success')
      assert.equal(result?.status, 'success')
      const usage = server.usageReported()
      assert.equal(result?.stats?.input_tokens, usage.input)
      assert.equal(result?.stats?.output_tokens, usage.output)
      assert.equal(result?.stats?.total_tokens, usage.input + usage.output)
      assert.equal(result?.stats?.models?.[MODEL]?.input_tokens, usage.input)
      assert.equal(result?.stats?.tool_calls, 1)
      assert.equal(result?.session_id, undefined, 'the session id is on the init line only')
    }
  )

  test('edits an existing file with replace', LIMIT, async (t) => {
    const { ws, server, run } = await play(
      t,
      () => ({
        turns: [
          {
            tools: [
              { name: 'replace', input: { file_path: 'README.md', old_string: 'hello', new_string: 'hello, edited', instruction: 'edit' } }
            ]
          },
          { text: 'done' }
        ]
      }),
      WORKTREE
    )
    assert.equal(run.code, 0, explain(run, server))
    assert.equal(ws.read('README.md'), 'hello, edited\n', explain(run, server))
  })

  test('trusted but default approval mode: no write tool is offered; the call fails "not found", exit 0', LIMIT, async (t) => {
    const { ws, server, run } = await play(t, () => ({ turns: [{ tools: [write()] }, { text: 'done' }] }), ['--skip-trust'])
    assert.equal(run.code, 0, explain(run, server))
    assert.equal(ws.read('hello.txt'), undefined)
    const offered = server.turnRequests()[0]?.request?.tools ?? []
    for (const tool of ['write_file', 'replace', 'run_shell_command'])
      assert.ok(!offered.includes(tool), `${tool} offered: ${offered.join(', ')}`)
    assert.match(toolResults(server)[0] ?? '', /Tool \\"write_file\\" not found/)
    assert.equal(run.events.find((e) => e.type === 'tool_result')?.error?.type, 'tool_not_registered')
  })

  test('auto_edit: a write outside the workspace is refused; a shell command is not offered ("not found")', LIMIT, async (t) => {
    const { ws, server, run } = await play(
      t,
      (ws) => ({
        turns: [
          { tools: [write(path.join(ws.outside, 'escape.txt'), 'x\n')] },
          { tools: [{ name: 'run_shell_command', input: { command: 'touch touched.txt' } }] },
          { text: 'done' }
        ]
      }),
      WORKTREE
    )
    assert.equal(run.code, 0, explain(run, server))
    assert.deepEqual(fs.readdirSync(ws.outside), [])
    assert.equal(ws.read('touched.txt'), undefined)
    const results = toolResults(server)
    assert.match(results[0] ?? '', /Path not in workspace/)
    assert.match(results[1] ?? '', /Tool \\"run_shell_command\\" not found/)
  })

  test(
    'shell allowed by a --policy rule and gated by a BeforeTool hook: exit 2 blocks, exit 1 does not, {"decision":"allow"} runs',
    LIMIT,
    async (t) => {
      const shell = (command: string) => ({ tools: [{ name: 'run_shell_command', input: { command } }] })
      const { ws, server, run } = await play(
        t,
        () => ({ turns: [shell('touch BLOCK-ME.txt'), shell('touch FAIL-ME.txt'), shell('touch ALLOW-ME.txt'), { text: 'done' }] }),
        (ws) => [...WORKTREE, '--policy', path.join(ws.root, 'allow-shell.toml')],
        {
          settings: {
            hooks: {
              BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: markerHook('{"decision":"allow"}') }] }]
            }
          },
          files: (ws) => ({
            [path.join(ws.root, 'allow-shell.toml')]: [
              '[[rule]]',
              'toolName = "run_shell_command"',
              'decision = "allow"',
              'priority = 500',
              ''
            ].join('\n')
          })
        }
      )
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.equal(ws.read('BLOCK-ME.txt'), undefined, why)
      assert.equal(ws.read('FAIL-ME.txt'), '', why)
      assert.equal(ws.read('ALLOW-ME.txt'), '', why)
      assert.match(toolResults(server)[0] ?? '', /Tool execution blocked: blocked by the approver/)
      assert.equal(run.events.find((e) => e.type === 'tool_result')?.error?.type, 'policy_violation')
      const inputs = hookInputs(ws)
      assert.equal(inputs.length, 3, why)
      assert.equal(inputs[0].hook_event_name, 'BeforeTool')
      assert.equal(inputs[0].tool_name, 'run_shell_command')
      assert.deepEqual(inputs[0].tool_input, { command: 'touch BLOCK-ME.txt' })
    }
  )

  for (const [status, code] of [
    [500, 244],
    [429, 173],
    [400, 144]
  ] as const) {
    test(
      `the API answers ${status}: exit ${code} (the HTTP status modulo 256), an error result; general.maxAttempts bounds retries`,
      LIMIT,
      async (t) => {
        const { ws, server, run, result } = await play(
          t,
          () => ({ turns: [{ error: { status, message: `scripted failure ${status}` }, sticky: true }] }),
          WORKTREE,
          {
            settings: { general: { maxAttempts: 1 } }
          }
        )
        const why = explain(run, server)
        assert.equal(run.code, code, why)
        assert.equal(server.turnRequests().length, 1, why)
        assert.equal(result?.status, 'error')
        assert.match(result?.error?.message ?? '', new RegExp(`scripted failure ${status}`))
        // The full error report goes to os.tmpdir(): the run's own TMPDIR.
        assert.match(run.stderr, new RegExp(`Full report available at: ${ws.tmp}/gemini-client-error-`))
      }
    )
  }
})
