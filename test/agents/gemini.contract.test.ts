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
  options: {
    settings?: Record<string, unknown>
    files?: (ws: Workspace) => Record<string, string>
    env?: (ws: Workspace) => Record<string, string>
  } = {}
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
  for (const [file, content] of Object.entries(options.files?.(ws) ?? {})) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, content)
  }
  const env = { ...baseEnv(ws), GEMINI_API_KEY: 'scripted-key', GOOGLE_GEMINI_BASE_URL: server.url, ...options.env?.(ws) }
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

  // The ask posture: a BeforeTool hook for one run, configured outside the worktree, gating the shell tool.
  const shell = (command: string) => ({ tools: [{ name: 'run_shell_command', input: { command } }] })
  const ASK = [...WORKTREE, '--allowed-tools', 'run_shell_command']
  /** Gemini's home moved (GEMINI_CLI_HOME) to a folder outside the repository whose user settings carry `hooks`. */
  const movedHome = (hooks: unknown) => ({
    files: (ws: Workspace) => ({
      [path.join(ws.root, 'gemini-home', '.gemini', 'settings.json')]: JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        hooks
      })
    }),
    env: (ws: Workspace) => ({ GEMINI_CLI_HOME: path.join(ws.root, 'gemini-home') })
  })
  const shellHook = (command: string, timeout?: number) => ({
    BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }]
  })
  /** What `quartet approval-hook` prints on an allow (exit 0). */
  const QUARTET_ALLOW = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'BeforeTool', permissionDecision: 'allow', permissionDecisionReason: 'approved in Quartet' }
  })
  const DECIDER = [
    'input=$(cat)',
    `{ printf '%s' "$input" | tr '\\n' ' '; echo; } >> "$HOME/../hook-inputs.jsonl"`,
    'case "$input" in',
    `  *BLOCK-ME*) echo "blocked by the approver" >&2; exit 2;;`,
    `  *SILENT-ME*) exit 2;;`,
    `  *FAIL-ME*) echo "deny?" >&2; exit 1;;`,
    `  *JSON-DENY-ME*) echo '{"decision":"deny","reason":"denied in JSON"}'; exit 0;;`,
    `  *JSON-EXIT2-ME*) echo '{"decision":"deny","reason":"denied in JSON, exit 2"}'; echo "stderr words" >&2; exit 2;;`,
    `  *ALLOW-ME*) echo '${QUARTET_ALLOW}'; exit 0;;`,
    'esac',
    'exit 1'
  ].join('\n')

  test(
    'ask: --allowed-tools offers the shell under auto_edit; a BeforeTool hook from a moved home (GEMINI_CLI_HOME) gates it',
    LIMIT,
    async (t) => {
      const markers = ['BLOCK-ME', 'SILENT-ME', 'FAIL-ME', 'JSON-DENY-ME', 'JSON-EXIT2-ME', 'ALLOW-ME']
      const { ws, server, run } = await play(
        t,
        () => ({ turns: [...markers.map((m) => shell(`touch ${m}.txt`)), { text: 'done' }] }),
        ASK,
        movedHome(shellHook(DECIDER))
      )
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.ok(server.turnRequests()[0]?.request?.tools.includes('run_shell_command'), why)
      const ran = markers.filter((m) => ws.read(`${m}.txt`) !== undefined)
      // Exit 2 blocks only through its words (stderr as plain text is a "deny"); a silent exit 2 and exit 1 let it run.
      assert.deepEqual(ran, ['SILENT-ME', 'FAIL-ME', 'ALLOW-ME'], why)
      const results = toolResults(server)
      assert.match(results[0] ?? '', /Tool execution blocked: blocked by the approver/)
      assert.match(results[3] ?? '', /Tool execution blocked: denied in JSON/)
      assert.match(results[4] ?? '', /Tool execution blocked: denied in JSON, exit 2/)
      assert.equal(run.events.find((e) => e.type === 'tool_result')?.error?.type, 'policy_violation')
      const inputs = hookInputs(ws)
      assert.equal(inputs.length, markers.length, why)
      const [first] = inputs
      assert.equal(first.hook_event_name, 'BeforeTool')
      assert.equal(first.tool_name, 'run_shell_command')
      assert.deepEqual(first.tool_input, { command: 'touch BLOCK-ME.txt' })
      assert.equal(fs.realpathSync(first.cwd), fs.realpathSync(ws.repo))
      assert.equal(first.tool_use_id, undefined, 'no call id')
      assert.deepEqual(Object.keys(first).sort(), [
        'cwd',
        'hook_event_name',
        'session_id',
        'timestamp',
        'tool_input',
        'tool_name',
        'transcript_path'
      ])
      assert.deepEqual(
        fs.readdirSync(ws.repo).sort(),
        ['.git', 'README.md', ...ran.map((m) => `${m}.txt`)].sort(),
        'nothing else in the repo'
      )
    }
  )

  test('ask: a hook that outlives its timeout (ms) is killed and does NOT block: the command runs', LIMIT, async (t) => {
    const slow = `cat > /dev/null; touch "$HOME/../hook-started"; exec sleep 30`
    const { ws, server, run } = await play(
      t,
      () => ({ turns: [shell('touch LATE.txt'), { text: 'done' }] }),
      ASK,
      movedHome(shellHook(slow, 2000))
    )
    const why = explain(run, server)
    assert.equal(run.code, 0, why)
    assert.ok(fs.existsSync(path.join(ws.root, 'hook-started')), `the hook ran: ${why}`)
    // Fail-open: so the ask posture gives Quartet's hook a deadline shorter than the hook's timeout.
    assert.equal(ws.read('LATE.txt'), '', `a timed-out hook lets the command run: ${why}`)
    assert.ok(run.ms >= 2000 && run.ms < 30_000, `${run.ms} ms`)
  })

  test(
    'a system settings file (GEMINI_CLI_SYSTEM_SETTINGS_PATH) not owned by root, or in a writable folder, is ignored',
    LIMIT,
    async (t) => {
      const { ws, server, run } = await play(t, () => ({ turns: [shell('touch BLOCK-ME.txt'), { text: 'done' }] }), ASK, {
        files: (ws) => ({ [path.join(ws.root, 'system', 'settings.json')]: JSON.stringify({ hooks: shellHook(DECIDER) }) }),
        env: (ws) => ({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(ws.root, 'system', 'settings.json') })
      })
      const why = explain(run, server)
      assert.equal(run.code, 0, why)
      assert.match(run.stderr, /Security Warning: Skipping system settings file .*(not owned by root|writable by group or others)/, why)
      assert.deepEqual(hookInputs(ws), [], 'its hook never ran')
      assert.equal(ws.read('BLOCK-ME.txt'), '', 'the command ran ungated')
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
