import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { buildTaskPrompt } from '../../../../src/services/orchestrator/engine/agents/prompt.js'
import { createExecutor } from '../../../../src/services/orchestrator/engine/execute.js'
import type { PlannedTask, TaskRunInput, Usage } from '../../../../src/services/orchestrator/engine/types.js'
import {
  DEFAULT_PROJECT_CONFIG,
  type AgentConfig,
  type ProjectConfig
} from '../../../../src/services/orchestrator/project/config-schema.js'
import { git, initRepo, platform, tempDir, writeScript, worktrees } from './helpers.js'

const temps: (() => void)[] = []
after(() => temps.forEach((cleanup) => cleanup()))

function workspace(name: string, { repo = true } = {}) {
  const project = tempDir(`${name}-project`)
  const data = tempDir(`${name}-data`)
  temps.push(project.cleanup, data.cleanup)
  if (repo) initRepo(project.dir)
  return { root: project.dir, dataDir: data.dir }
}

function config(agents: Record<string, AgentConfig>, patch: Partial<ProjectConfig> = {}): ProjectConfig {
  const base = structuredClone(DEFAULT_PROJECT_CONFIG)
  return { ...base, agents, engine: { ...base.engine, kill_grace_seconds: 0.3 }, ...patch }
}

function task(patch: Partial<PlannedTask> = {}): PlannedTask {
  return {
    key: '1',
    title: 'Write notes',
    description: 'Create notes.txt.',
    dependencies: [],
    files: [],
    goCriteria: [],
    noGoCriteria: [],
    priority: 'NORMAL',
    expectChange: true,
    ...patch
  }
}

function input(root: string, dataDir: string, patch: Partial<TaskRunInput> = {}) {
  const usage: Usage[] = []
  const value: TaskRunInput = {
    projectRoot: root,
    sprintId: 's1',
    taskId: 't1',
    task: task(),
    attempt: 1,
    logFile: path.join(dataDir, 'logs', 't1.log'),
    logCapBytes: 1024 * 1024,
    timeoutMs: 20000,
    signal: new AbortController().signal,
    onHeartbeat: () => {},
    onProcess: () => {},
    onUsage: (u) => usage.push(u),
    ...patch
  }
  return { value, usage }
}

const noProvider = () => Promise.reject(new Error('no provider agent in these tests'))
const executor = (cfg: ProjectConfig, dataDir: string) =>
  createExecutor({ platform, config: cfg, dataDir, runProviderTask: noProvider, worktrees })

test('a prompt with quotes, $(…), backticks, ; and newlines arrives byte-identical as one argv element', async () => {
  const { root, dataDir } = workspace('argv')
  const nasty = `it's "quoted" $(touch /tmp/quartet-pwned) \`id\` ; rm -rf nothing\nsecond line {taskId} $HOME \\ done`
  const script = writeScript(
    dataDir,
    'agent.mjs',
    ["import fs from 'node:fs'", "fs.writeFileSync('argv.json', JSON.stringify(process.argv.slice(2)))"].join('\n')
  )
  const agent: AgentConfig = {
    kind: 'command',
    argv: [process.execPath, script, '{prompt}', 'task={taskId};dir={workdir}', '{promptFile}']
  }
  const theTask = task({ title: nasty, description: nasty })
  const outcome = await executor(config({ node: agent }), dataDir)(input(root, dataDir, { task: theTask }).value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  const argv = JSON.parse(fs.readFileSync(path.join(outcome.worktree!, 'argv.json'), 'utf8')) as string[]
  const expected = buildTaskPrompt(theTask, { attempt: 1 })
  assert.equal(argv.length, 3)
  assert.equal(argv[0], expected)
  assert.equal(argv[1], `task=t1;dir=${outcome.worktree}`)
  assert.equal(fs.readFileSync(argv[2]!, 'utf8'), expected)
  assert.ok(argv[2]!.startsWith(dataDir + path.sep), 'the prompt file lives under the data dir, not in the worktree')
  assert.equal(fs.existsSync('/tmp/quartet-pwned'), false)
})

test('a fake claude emitting stream-json: usage and cost reach onUsage and the outcome', async () => {
  const { root, dataDir } = workspace('claude')
  const bin = path.join(dataDir, 'bin')
  fs.mkdirSync(bin)
  const lines = [
    { type: 'system', subtype: 'init', session_id: 'abc', model: 'claude-sonnet-4-5', tools: ['Edit'] },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Editing notes.txt' }], usage: { input_tokens: 3, output_tokens: 5 } }
    },
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: 'ok' }] } },
    {
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: 4200,
      num_turns: 3,
      result: 'Created notes.txt',
      session_id: 'abc',
      total_cost_usd: 0.0421,
      usage: { input_tokens: 120, cache_creation_input_tokens: 1000, cache_read_input_tokens: 20000, output_tokens: 345 }
    }
  ]
  writeScript(
    bin,
    'claude',
    [
      '#!/bin/sh',
      '[ "$1" = "-p" ] && [ "$3" = "--output-format" ] && [ "$4" = "stream-json" ] && [ "$5" = "--verbose" ] || ' +
        '{ echo "bad args: $*" >&2; exit 2; }',
      'echo "a warning that is not JSON"',
      'echo notes > notes.txt',
      ...lines.map((line) => `echo '${JSON.stringify(line)}'`)
    ].join('\n') + '\n'
  )
  const agent: AgentConfig = { kind: 'command', preset: 'claude', env: { PATH: `${bin}:${process.env.PATH ?? ''}` } }
  const { value, usage } = input(root, dataDir)
  const outcome = await executor(config({ claude: agent }), dataDir)(value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  const expected: Usage = { inputTokens: 21120, outputTokens: 345, costUsd: 0.0421, model: 'claude-sonnet-4-5' }
  assert.deepEqual(usage, [expected])
  assert.deepEqual(outcome.usage, expected)
})

test('a claude result with is_error: NO_GO with its message, usage still recorded', async () => {
  const { root, dataDir } = workspace('claude-error')
  const result = JSON.stringify({
    type: 'result',
    subtype: 'error_max_turns',
    is_error: true,
    total_cost_usd: 0.5,
    usage: { input_tokens: 10, output_tokens: 2 }
  })
  const script = writeScript(dataDir, 'claude.sh', `echo '${result}'\necho x > x.txt\n`)
  const agent: AgentConfig = { kind: 'command', argv: ['/bin/sh', script], output: 'claude-stream-json' }
  const { value, usage } = input(root, dataDir)
  const outcome = await executor(config({ claude: agent }), dataDir)(value)
  assert.equal(outcome.status, 'NO_GO')
  assert.match(outcome.reason, /^agent reported an error: error_max_turns/)
  assert.deepEqual(usage, [{ inputTokens: 10, outputTokens: 2, costUsd: 0.5 }])
})

test("resume: the second attempt reuses the worktree with the first attempt's uncommitted work", async () => {
  const { root, dataDir } = workspace('resume')
  const script = writeScript(
    dataDir,
    'agent.sh',
    ['if [ -f draft.txt ]; then echo "second half" >> draft.txt; exit 0; fi', 'echo "first half" > draft.txt', 'exit 1'].join('\n') + '\n'
  )
  const run = executor(config({ fake: { kind: 'command', argv: ['/bin/sh', script] } }), dataDir)
  const first = await run(input(root, dataDir).value)
  assert.equal(first.status, 'NO_GO')
  assert.deepEqual(first.filesChanged, ['draft.txt'], 'a failed attempt still reports the work it left behind')
  assert.equal(fs.readFileSync(path.join(first.worktree!, 'draft.txt'), 'utf8'), 'first half\n')
  const second = await run(input(root, dataDir, { attempt: 2 }).value)
  assert.equal(second.status, 'DONE', second.reason)
  assert.equal(second.worktree, first.worktree)
  assert.equal(git(root, 'show', `${second.commitSha}:draft.txt`), 'first half\nsecond half')
})

test('a project that is not a git repository: snapshot change detection, nothing committed', async () => {
  const { root, dataDir } = workspace('plain', { repo: false })
  fs.writeFileSync(path.join(root, 'keep.txt'), 'same\n')
  fs.writeFileSync(path.join(root, 'edit.txt'), 'before\n')
  fs.writeFileSync(path.join(root, 'gone.txt'), 'bye\n')
  fs.mkdirSync(path.join(root, 'node_modules'))
  const script = writeScript(
    dataDir,
    'agent.sh',
    [
      'echo after > edit.txt',
      'rm gone.txt',
      'mkdir -p src && echo new > src/new.txt',
      'touch keep.txt',
      'echo ignored > node_modules/x.js'
    ].join('\n') + '\n'
  )
  const run = executor(config({ fake: { kind: 'command', argv: ['/bin/sh', script] } }), dataDir)
  const outcome = await run(input(root, dataDir).value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  assert.deepEqual(outcome.filesChanged, ['edit.txt', 'gone.txt', 'src/new.txt'])
  assert.equal(outcome.commitSha, null)
  assert.equal(outcome.branch, null)
  assert.equal(outcome.worktree, null)
  const idle = writeScript(dataDir, 'idle.sh', 'echo nothing to do\n')
  const none = await executor(config({ fake: { kind: 'command', argv: ['/bin/sh', idle] } }), dataDir)(input(root, dataDir).value)
  assert.equal(none.status, 'NO_GO')
  assert.match(none.reason, /changed no files/)
})

test('no agent, an unknown agent, several without a default, a missing command: NO_GO saying what to do', async () => {
  const { root, dataDir } = workspace('agents')
  const none = await executor(config({}), dataDir)(input(root, dataDir).value)
  assert.equal(none.status, 'NO_GO')
  assert.match(none.reason, /no agent is configured.*\.quartet\/config\.json/)
  const unknown = await executor(
    config({ a: { kind: 'command', argv: ['true'] } }),
    dataDir
  )(input(root, dataDir, { task: task({ agent: 'nope' }) }).value)
  assert.match(unknown.reason, /agent "nope" is not configured \(configured: a\)/)
  const several = await executor(
    config({ a: { kind: 'command', argv: ['true'] }, b: { kind: 'command', argv: ['true'] } }),
    dataDir
  )(input(root, dataDir).value)
  assert.match(several.reason, /several agents are configured \(a, b\).*default_agent/)
  const missing = await executor(
    config({ a: { kind: 'command', argv: [path.join(dataDir, 'no-such-cli'), '{prompt}'] } }),
    dataDir
  )(input(root, dataDir).value)
  assert.equal(missing.status, 'NO_GO')
  assert.match(missing.reason, /agent a could not be started .*ENOENT/)
})

test('parallel attempts on one repository each get their own worktree and commit', async () => {
  const { root, dataDir } = workspace('parallel')
  const script = writeScript(dataDir, 'agent.sh', 'echo "$QUARTET_TASK_ID" > "out-$QUARTET_TASK_ID.txt"\n')
  const run = executor(config({ fake: { kind: 'command', argv: ['/bin/sh', script] } }), dataDir)
  const ids = ['p1', 'p2', 'p3', 'p4']
  const outcomes = await Promise.all(
    ids.map((taskId) => run(input(root, dataDir, { taskId, logFile: path.join(dataDir, 'logs', `${taskId}.log`) }).value))
  )
  for (const [i, outcome] of outcomes.entries()) {
    assert.equal(outcome.status, 'DONE', outcome.reason)
    assert.deepEqual(outcome.filesChanged, [`out-${ids[i]}.txt`])
    assert.equal(git(root, 'show', `quartet/s1/${ids[i]}:out-${ids[i]}.txt`), ids[i])
  }
})

test('a project in a subdirectory of a repository: the agent works in that subdirectory of its worktree', async () => {
  const { root, dataDir } = workspace('subdir')
  fs.mkdirSync(path.join(root, 'app'))
  fs.writeFileSync(path.join(root, 'app', 'index.txt'), 'app\n')
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', 'app')
  const script = writeScript(dataDir, 'agent.sh', 'echo hi > here.txt\n')
  const outcome = await executor(
    config({ fake: { kind: 'command', argv: ['/bin/sh', script] } }),
    dataDir
  )(input(path.join(root, 'app'), dataDir).value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  assert.deepEqual(outcome.filesChanged, ['app/here.txt'])
  assert.equal(git(root, 'status', '--porcelain', '--untracked-files=all'), '')
})
