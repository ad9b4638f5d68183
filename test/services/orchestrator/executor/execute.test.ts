import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { createExecutor } from '../../../../src/services/orchestrator/engine/execute.js'
import type { PlannedTask, TaskRunInput, Usage } from '../../../../src/services/orchestrator/engine/types.js'
import {
  DEFAULT_PROJECT_CONFIG,
  type AgentConfig,
  type ProjectConfig
} from '../../../../src/services/orchestrator/project/config-schema.js'
import { git, groupAlive, initRepo, platform, processAlive, tempDir, writeScript, worktrees } from './helpers.js'

const temps: (() => void)[] = []
after(() => temps.forEach((cleanup) => cleanup()))

function workspace(name: string, { repo = true } = {}) {
  const project = tempDir(`${name}-project`)
  const data = tempDir(`${name}-data`)
  temps.push(project.cleanup, data.cleanup)
  if (repo) initRepo(project.dir)
  return { root: project.dir, dataDir: data.dir }
}

function config(agent: AgentConfig, patch: Partial<ProjectConfig> = {}): ProjectConfig {
  const base = structuredClone(DEFAULT_PROJECT_CONFIG)
  return { ...base, agents: { fake: agent }, engine: { ...base.engine, kill_grace_seconds: 0.3 }, ...patch }
}

const shellAgent = (script: string): AgentConfig => ({ kind: 'command', argv: ['/bin/sh', script, '{prompt}'] })

function task(patch: Partial<PlannedTask> = {}): PlannedTask {
  return {
    key: '1',
    title: 'Add a greeting',
    description: 'Create greeting.txt saying hello.',
    dependencies: [],
    files: ['greeting.txt'],
    goCriteria: ['greeting.txt exists'],
    noGoCriteria: ['README.md changed'],
    priority: 'NORMAL',
    expectChange: true,
    ...patch
  }
}

function input(root: string, dataDir: string, patch: Partial<TaskRunInput> = {}) {
  const seen = { heartbeats: [] as string[], actions: [] as string[], pids: [] as number[], usage: [] as Usage[] }
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
    onHeartbeat: (beat) => {
      seen.heartbeats.push(beat.status)
      seen.actions.push(beat.currentAction)
    },
    onProcess: (pid) => seen.pids.push(pid),
    onUsage: (usage) => seen.usage.push(usage),
    ...patch
  }
  return { value, seen }
}

const noProvider = () => Promise.reject(new Error('no provider agent in these tests'))
const executor = (cfg: ProjectConfig, dataDir: string) =>
  createExecutor({ platform, config: cfg, dataDir, runProviderTask: noProvider, worktrees })

test('an agent that edits a file: DONE, committed on quartet/<sprint>/<task>, the main checkout untouched', async () => {
  const { root, dataDir } = workspace('done')
  const mainHead = git(root, 'rev-parse', 'HEAD')
  const script = writeScript(dataDir, 'agent.sh', 'echo "working in $(pwd)"\necho hello > greeting.txt\n')
  const { value, seen } = input(root, dataDir)
  const outcome = await executor(config(shellAgent(script)), dataDir)(value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  assert.equal(outcome.branch, 'quartet/s1/t1')
  assert.equal(outcome.worktree, path.join(root, '.quartet', 'worktrees', 's1', 't1'))
  assert.deepEqual(outcome.filesChanged, ['greeting.txt'])
  assert.equal(outcome.exitCode, 0)
  assert.equal(outcome.transient, false)
  assert.equal(git(root, 'rev-parse', 'quartet/s1/t1'), outcome.commitSha)
  assert.equal(git(root, 'log', '-1', '--format=%B', 'quartet/s1/t1'), 'Add a greeting\n\nquartet-task: t1')
  assert.equal(git(root, 'show', 'quartet/s1/t1:greeting.txt'), 'hello')
  assert.equal(git(root, 'rev-parse', 'HEAD'), mainHead)
  assert.equal(git(root, 'status', '--porcelain', '--untracked-files=all'), '')
  assert.equal(fs.existsSync(path.join(root, 'greeting.txt')), false)
  assert.deepEqual(seen.heartbeats, ['EXECUTING'])
  assert.equal(seen.pids.length, 1)
  assert.ok(outcome.logTail.includes(`working in ${outcome.worktree}`))
  assert.ok(outcome.agentMs > 0)
})

test('an agent that exits 1: NO_GO with the exit code and the end of its output', async () => {
  const { root, dataDir } = workspace('exit1')
  const script = writeScript(dataDir, 'agent.sh', 'echo "compiling"\necho "error: cannot find module" >&2\nexit 1\n')
  const outcome = await executor(config(shellAgent(script)), dataDir)(input(root, dataDir).value)
  assert.equal(outcome.status, 'NO_GO')
  assert.equal(outcome.exitCode, 1)
  assert.match(outcome.reason, /^agent exited with code 1\n/)
  assert.match(outcome.reason, /error: cannot find module/)
  assert.ok(outcome.logTail.includes('compiling'))
  assert.equal(outcome.commitSha, null)
})

test('an agent that exits 0 and changes nothing: NO_GO; with expectChange false: DONE', async () => {
  const { root, dataDir } = workspace('nochange')
  const script = writeScript(dataDir, 'agent.sh', 'echo "all looks fine"\n')
  const run = executor(config(shellAgent(script)), dataDir)
  const idle = await run(input(root, dataDir).value)
  assert.equal(idle.status, 'NO_GO')
  assert.match(idle.reason, /^agent exited 0 but changed no files/)
  const review = await run(input(root, dataDir, { taskId: 't2', task: task({ expectChange: false }) }).value)
  assert.equal(review.status, 'DONE', review.reason)
  assert.deepEqual(review.filesChanged, [])
  assert.equal(review.commitSha, null)
})

test('a failing check command: NO_GO with its exit code and output, after the work was committed', async () => {
  const { root, dataDir } = workspace('check')
  const script = writeScript(dataDir, 'agent.sh', 'echo hello > greeting.txt\n')
  const cfg = config(shellAgent(script), {
    check: { command: 'test -f greeting.txt && echo "2 tests failed" && exit 3', timeout_seconds: 30 }
  })
  const { value, seen } = input(root, dataDir)
  const outcome = await executor(cfg, dataDir)(value)
  assert.equal(outcome.status, 'NO_GO')
  assert.match(outcome.reason, /^check command failed \(exit 3\): test -f greeting\.txt && echo "2 tests failed" && exit 3\n2 tests failed/)
  assert.deepEqual(seen.heartbeats, ['EXECUTING', 'TESTING'])
  assert.equal(seen.pids.length, 2)
  assert.ok(outcome.commitSha)
  const log = fs.readFileSync(value.logFile, 'utf8')
  assert.match(log, /\[quartet\] check: test -f greeting\.txt.*\n2 tests failed\n/)

  const passing = config(shellAgent(script), {
    check: { command: ['/bin/sh', '-c', 'test "$(cat greeting.txt)" = hello'], timeout_seconds: 30 }
  })
  const ok = await executor(passing, dataDir)(input(root, dataDir, { taskId: 't2' }).value)
  assert.equal(ok.status, 'DONE', ok.reason)
  assert.match(ok.reason, /check passed/)
})

test('a hanging agent times out: NO_GO and its process group is gone', async () => {
  const { root, dataDir } = workspace('hang')
  const script = writeScript(dataDir, 'agent.sh', 'trap "" TERM\nsleep 60 &\nsleep 60\n')
  const { value, seen } = input(root, dataDir, { timeoutMs: 1000 })
  const outcome = await executor(config(shellAgent(script)), dataDir)(value)
  assert.equal(outcome.status, 'NO_GO')
  assert.equal(outcome.reason, 'timed out after 1s (engine.task_timeout_seconds)')
  assert.equal(seen.pids.length, 1)
  assert.equal(groupAlive(seen.pids[0]!), false)
})

test('abort mid-run: CANCELLED and the whole group, grandchild included, is gone', async () => {
  const { root, dataDir } = workspace('abort')
  const script = writeScript(dataDir, 'agent.sh', 'sh -c \'sleep 60 & echo "grandchild $!"; sleep 60\'\n')
  const controller = new AbortController()
  const { value, seen } = input(root, dataDir, { signal: controller.signal })
  const pending = executor(config(shellAgent(script)), dataDir)(value)
  let grandchild = 0
  for (let i = 0; i < 200 && grandchild === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    const match = /grandchild (\d+)/.exec(fs.existsSync(value.logFile) ? fs.readFileSync(value.logFile, 'utf8') : '')
    if (match) grandchild = Number(match[1])
  }
  assert.ok(grandchild > 0, 'the agent started its grandchild')
  assert.equal(groupAlive(seen.pids[0]!), true)
  controller.abort()
  const outcome = await pending
  assert.equal(outcome.status, 'CANCELLED')
  assert.equal(groupAlive(seen.pids[0]!), false)
  assert.equal(processAlive(grandchild), false)
})

test('an agent printing 10 MB: the log keeps its head and tail with one marker, the check output is kept whole', async () => {
  const { root, dataDir } = workspace('flood')
  const script = writeScript(
    dataDir,
    'agent.sh',
    `"${process.execPath}" -e 'const l = "y".repeat(1023) + "\\n"; for (let i = 0; i < 10240; i++) process.stdout.write(l)'\n` +
      'echo hello > greeting.txt\necho finished\n'
  )
  const { value } = input(root, dataDir, { logCapBytes: 256 * 1024 })
  const cfg = config(shellAgent(script), { check: { command: 'echo "check output survives"', timeout_seconds: 30 } })
  const outcome = await executor(cfg, dataDir)(value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  const log = fs.readFileSync(value.logFile, 'utf8')
  assert.ok(log.length < 256 * 1024 + 1000, `log has ${log.length} bytes`)
  assert.equal(log.split('\n').filter((line) => line.startsWith('[quartet] log cut: ')).length, 1)
  assert.match(log, /\nfinished\n/, "the agent's last line is kept")
  assert.match(log, /\ncheck output survives\n/, "the check's output is kept after the agent's flood")
  assert.equal(outcome.logTail.at(-1), 'finished')
})

test('a long-running agent and check are reported alive while they run, with their latest output', async () => {
  const { root, dataDir } = workspace('beats')
  const script = writeScript(dataDir, 'agent.sh', 'echo "step one"\nsleep 0.6\necho hello > greeting.txt\n')
  const cfg = config(shellAgent(script), { check: { command: 'echo "running tests"; sleep 0.6', timeout_seconds: 30 } })
  const { value, seen } = input(root, dataDir)
  const outcome = await createExecutor({
    platform,
    config: cfg,
    dataDir,
    runProviderTask: noProvider,
    worktrees,
    heartbeatIntervalMs: 100
  })(value)
  assert.equal(outcome.status, 'DONE', outcome.reason)
  assert.ok(seen.heartbeats.filter((s) => s === 'EXECUTING').length >= 3, seen.heartbeats.join(','))
  assert.ok(seen.heartbeats.filter((s) => s === 'TESTING').length >= 3, seen.heartbeats.join(','))
  assert.equal(seen.heartbeats.lastIndexOf('EXECUTING') < seen.heartbeats.indexOf('TESTING'), true)
  assert.ok(seen.actions.includes('running agent fake: step one'), seen.actions.join(' | '))
  assert.ok(seen.actions.includes('running the check command: running tests'), seen.actions.join(' | '))
  const countAfter = seen.heartbeats.length
  await new Promise((resolve) => setTimeout(resolve, 300))
  assert.equal(seen.heartbeats.length, countAfter, 'no beat after the attempt ended')
})
