import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { createClaudeStreamReader } from '../../../../src/services/orchestrator/engine/agents/claude-stream-json.js'
import { resolveCommand, substitutePlaceholders } from '../../../../src/services/orchestrator/engine/agents/command-agent.js'
import { buildTaskPrompt } from '../../../../src/services/orchestrator/engine/agents/prompt.js'
import { allChanged, diffSnapshots, snapshotTree } from '../../../../src/services/orchestrator/engine/changes.js'
import { tempDir } from './helpers.js'

const { dir, cleanup } = tempDir('agents')
after(cleanup)

const values = { prompt: 'do {workdir} it', promptFile: '/data/p.md', taskId: 't-7', workdir: '/w' }

test('placeholders: several per element, one pass (a value is never substituted again), unknown braces kept', () => {
  assert.deepEqual(substitutePlaceholders(['x', '--id={taskId}@{workdir}', '{prompt}', '{promptFile}', '{other}'], values), [
    'x',
    '--id=t-7@/w',
    'do {workdir} it',
    '/data/p.md',
    '{other}'
  ])
})

test("presets and overrides: each preset's worktree posture and reader; a configured argv replaces the preset's", () => {
  const claude = resolveCommand('c', { kind: 'command', preset: 'claude' }, values)
  assert.equal(claude.command, 'claude')
  assert.deepEqual(claude.args, [
    '-p',
    'do {workdir} it',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-mode',
    'acceptEdits'
  ])
  assert.equal(claude.output, 'claude-stream-json')
  assert.deepEqual(resolveCommand('a', { kind: 'command', preset: 'aider' }, values).args, [
    '--yes-always',
    '--no-suggest-shell-commands',
    '--message',
    'do {workdir} it'
  ])
  const codex = resolveCommand('x', { kind: 'command', preset: 'codex' }, values)
  assert.deepEqual(codex.args, ['exec', '--json', '-s', 'workspace-write', '--skip-git-repo-check', 'do {workdir} it'])
  assert.equal(codex.output, 'codex-json')
  assert.deepEqual(resolveCommand('g', { kind: 'command', preset: 'gemini' }, values).args, [
    '-p',
    'do {workdir} it',
    '-o',
    'stream-json',
    '--approval-mode',
    'auto_edit',
    '--skip-trust'
  ])
  assert.deepEqual(resolveCommand('g', { kind: 'command', preset: 'gemini', permissions: 'full' }, values).args.slice(4, 6), [
    '--approval-mode',
    'yolo'
  ])
  const custom = resolveCommand('g', { kind: 'command', preset: 'gemini', argv: ['my-gemini', '--file', '{promptFile}'] }, values)
  assert.deepEqual(
    [custom.command, custom.args, custom.output, custom.env],
    ['my-gemini', ['--file', '/data/p.md'], 'gemini-stream-json', {}]
  )
  assert.throws(() => resolveCommand('empty', { kind: 'command' }, values), /agent "empty" has neither a preset/)
  assert.throws(
    () => resolveCommand('qx', { kind: 'command', preset: 'qwen', permissions: 'ask' }, values),
    /Qwen Code cannot run with permissions "ask"/
  )
})

test('codex ask posture: every shell command goes through `quartet approval-hook` with its own deadline first', () => {
  const approvalHook = { command: '/usr/bin/node', args: ['/q q/main.js', 'approval-hook', '--project', '/p'] }
  const ask = resolveCommand('cx', { kind: 'command', preset: 'codex', permissions: 'ask' }, values, {
    taskId: 's1-2',
    sprintId: 's1',
    env: {},
    mcp: { command: 'q', args: [] },
    approvalHook,
    stateDir: '/p/.quartet/runtime/agents/s1-2'
  })
  assert.deepEqual(ask.args.slice(0, 7), [
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '--skip-git-repo-check',
    '--dangerously-bypass-hook-trust',
    '-c'
  ])
  assert.equal(
    ask.args[7],
    'hooks.PreToolUse=[{matcher = "Bash", hooks = [{type = "command", command = ' +
      `"/usr/bin/node '/q q/main.js' approval-hook --project /p --deadline-seconds 86400", timeout = 86460}]}]`
  )
  assert.equal(ask.args.at(-1), 'do {workdir} it')
})

test("gemini ask posture: the shell tool, gated by a BeforeTool hook in the run's own Gemini home (the user's settings kept)", () => {
  const root = fs.mkdtempSync(path.join(dir, 'gemini-'))
  const real = path.join(root, 'home', '.gemini')
  fs.mkdirSync(path.join(real, 'policies'), { recursive: true })
  fs.writeFileSync(path.join(real, 'oauth_creds.json'), '{}')
  const mine = { matcher: 'write_file', hooks: [{ type: 'command', command: 'mine' }] }
  const user = {
    model: { name: 'm' },
    hooks: { BeforeTool: [mine] },
    hooksConfig: { enabled: false, disabled: ['x', 'quartet-approval'] }
  }
  fs.writeFileSync(path.join(real, 'settings.json'), JSON.stringify(user))
  const stateDir = path.join(root, 'state')
  const approvalHook = { command: '/usr/bin/node', args: ['/q q/main.js', 'approval-hook', '--project', '/p'] }
  const context = {
    taskId: 's1-2',
    sprintId: 's1',
    env: { HOME: path.join(root, 'home') },
    mcp: { command: 'q', args: [] },
    approvalHook,
    stateDir
  }
  const ask = resolveCommand('g', { kind: 'command', preset: 'gemini', permissions: 'ask' }, values, context)
  assert.deepEqual(ask.args.slice(-4), ['auto_edit', '--skip-trust', '--allowed-tools', 'run_shell_command'])
  const home = path.join(stateDir, 'gemini-home')
  assert.deepEqual(ask.env, { GEMINI_CLI_HOME: home })
  const shadow = path.join(home, '.gemini')
  assert.deepEqual(fs.readdirSync(shadow).sort(), ['oauth_creds.json', 'policies', 'settings.json'])
  assert.equal(fs.readlinkSync(path.join(shadow, 'policies')), path.join(real, 'policies'))
  const settings = JSON.parse(fs.readFileSync(path.join(shadow, 'settings.json'), 'utf8'))
  assert.deepEqual(settings.model, user.model)
  assert.deepEqual(settings.hooksConfig, { enabled: true, disabled: ['x'] })
  assert.deepEqual(settings.hooks.BeforeTool, [
    mine,
    {
      matcher: 'run_shell_command',
      hooks: [
        {
          name: 'quartet-approval',
          type: 'command',
          command: "QUARTET_TASK_ID=s1-2 /usr/bin/node '/q q/main.js' approval-hook --project /p --deadline-seconds 86400",
          timeout: 86_460_000
        }
      ]
    }
  ])
  fs.writeFileSync(path.join(real, 'settings.json'), '{ // a comment\n}')
  assert.throws(() => resolveCommand('g', { kind: 'command', preset: 'gemini', permissions: 'ask' }, values, context), /plain JSON/)
  const worktree = resolveCommand('g', { kind: 'command', preset: 'gemini' }, values, context)
  assert.deepEqual([worktree.args.slice(-2), worktree.env], [['auto_edit', '--skip-trust'], {}])
})

test("claude ask posture: Quartet's MCP permission tool is wired with the task id", () => {
  const mcp = { command: '/usr/bin/node', args: ['/q/dist/cli/main.js', 'mcp', '--project', '/p'] }
  const ask = resolveCommand('c', { kind: 'command', preset: 'claude', permissions: 'ask' }, values, {
    taskId: 's1-2',
    sprintId: 's1',
    env: {},
    mcp,
    approvalHook: { command: '/usr/bin/node', args: ['/q/dist/cli/main.js', 'approval-hook', '--project', '/p'] },
    stateDir: '/p/.quartet/runtime/agents/s1-2'
  })
  const config = JSON.parse(ask.args[ask.args.indexOf('--mcp-config') + 1]!)
  assert.deepEqual(config.mcpServers.quartet.command, '/usr/bin/node')
  assert.deepEqual(config.mcpServers.quartet.args, mcp.args)
  assert.equal(config.mcpServers.quartet.env.QUARTET_TASK_ID, 's1-2')
  assert.equal(ask.args[ask.args.indexOf('--permission-prompt-tool') + 1], 'mcp__quartet__permission_prompt')
})

test('opencode: the posture is merged into the OPENCODE_CONFIG_CONTENT the user set', () => {
  const env = { OPENCODE_CONFIG_CONTENT: JSON.stringify({ model: 'local/m', permission: { bash: 'allow' } }) }
  const run = resolveCommand('o', { kind: 'command', preset: 'opencode' }, values, {
    taskId: 't',
    sprintId: 's',
    env,
    mcp: { command: 'q', args: [] },
    approvalHook: { command: 'q', args: ['approval-hook'] },
    stateDir: '/p/.quartet/runtime/agents/t'
  })
  assert.deepEqual(JSON.parse(run.env.OPENCODE_CONFIG_CONTENT!), {
    model: 'local/m',
    permission: { edit: 'allow', bash: 'deny', external_directory: 'deny' }
  })
})

test('buildTaskPrompt: title, description, scope, criteria and the working-directory rule', () => {
  const prompt = buildTaskPrompt(
    {
      key: '3',
      title: 'Fix login',
      description: 'The login form rejects valid emails.',
      dependencies: [],
      files: ['src/login.ts'],
      goCriteria: ['valid emails accepted'],
      noGoCriteria: ['tests removed'],
      priority: 'HIGH',
      expectChange: true
    },
    { attempt: 2, previousReason: 'check command failed (exit 1)' }
  )
  for (const part of [
    '# Task: Fix login',
    'The login form rejects valid emails.',
    '- src/login.ts',
    '- valid emails accepted',
    '- tests removed',
    'current working directory',
    'attempt 2',
    'check command failed (exit 1)'
  ]) {
    assert.ok(prompt.includes(part), `prompt mentions ${part}`)
  }
})

test('buildTaskPrompt: the sprint context comes first; a retry gets the previous reason and the end of its log', () => {
  const task = {
    key: '1',
    title: 'Write hello.txt',
    description: 'Say hello.',
    dependencies: [],
    files: ['hello.txt'],
    goCriteria: ['hello.txt exists'],
    noGoCriteria: [],
    priority: 'NORMAL' as const,
    expectChange: true
  }
  const first = buildTaskPrompt(task, { attempt: 1, sprintContext: 'We build a greeter.\n' })
  assert.ok(first.startsWith('# Sprint context\nWe build a greeter.\n\n# Task: Write hello.txt'), first)
  assert.ok(!first.includes('Earlier attempt'))
  const retry = buildTaskPrompt(task, {
    attempt: 2,
    sprintContext: 'We build a greeter.',
    previousReason: 'check command failed (exit 1): npm test',
    previousLogTail: ['line 1', '', 'AssertionError: expected hello']
  })
  assert.match(retry, /This is attempt 2;.*The previous attempt ended: check command failed \(exit 1\): npm test/s)
  assert.match(retry, /The end of its log:\n```\nline 1\nAssertionError: expected hello\n```/)
})

test('claude stream-json: usage, denials and session from the final result, model from init, other lines ignored', () => {
  const parser = createClaudeStreamReader()
  for (const line of [
    'not json',
    '{broken',
    '[1,2]',
    '{"type":"system","subtype":"init","model":"claude-opus-4","session_id":"sess-1"}',
    '{"type":"assistant","message":{"usage":{"input_tokens":99}}}'
  ])
    parser.onLine(line)
  assert.deepEqual(parser.report(), { denials: [], sessionId: 'sess-1' })
  parser.onLine('{"type":"assistant","message":{"content":[{"type":"text","text":"Reading the form\\nmore"}]}}')
  assert.equal(parser.activity(), 'Reading the form')
  parser.onLine('{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{}}]}}')
  assert.equal(parser.activity(), 'using Edit')
  parser.onLine(
    '  {"type":"result","is_error":false,"result":"ok","usage":{"input_tokens":7,"cache_read_input_tokens":3,"output_tokens":4},' +
      '"permission_denials":[{"tool_name":"Write","tool_input":{"file_path":"/etc/x"}}]}  '
  )
  assert.deepEqual(parser.report(), {
    usage: { inputTokens: 10, outputTokens: 4, costUsd: null, model: 'claude-opus-4' },
    denials: ['Write /etc/x'],
    sessionId: 'sess-1'
  })
  const failed = createClaudeStreamReader()
  failed.onLine('{"type":"result","is_error":true,"api_error_status":529,"result":"API Error: 529 Overloaded","total_cost_usd":0}')
  assert.equal(failed.report().error, 'API Error: 529 Overloaded')
  assert.equal(failed.report().usage?.costUsd, 0)
})

test('snapshots: content decides for small files, size and mtime for large ones; skipped directories', async () => {
  const root = path.join(dir, 'tree')
  fs.mkdirSync(path.join(root, '.git'), { recursive: true })
  fs.mkdirSync(path.join(root, 'sub'))
  fs.writeFileSync(path.join(root, 'small.txt'), 'a')
  fs.writeFileSync(path.join(root, 'big.bin'), Buffer.alloc(2 * 1024 * 1024))
  fs.writeFileSync(path.join(root, 'sub', 'x.txt'), 'x')
  const before = await snapshotTree(root)
  assert.equal(before.get('big.bin')?.sha1, null)
  fs.writeFileSync(path.join(root, 'small.txt'), 'a') // same content, new mtime
  fs.utimesSync(path.join(root, 'big.bin'), new Date(), new Date(Date.now() + 5000))
  fs.writeFileSync(path.join(root, 'sub', 'x.txt'), 'y')
  fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ignored')
  const changes = diffSnapshots(before, await snapshotTree(root))
  assert.deepEqual(changes, { changed: ['big.bin', 'sub/x.txt'], added: [], deleted: [] })
  assert.deepEqual(allChanged(changes), ['big.bin', 'sub/x.txt'])
})
