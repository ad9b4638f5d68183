import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { applyDiff, runProviderTask } from '../../../../src/services/orchestrator/engine/providers/apply-diff.js'
import type { ProviderAgent } from '../../../../src/services/orchestrator/engine/providers/client.js'
import type { PlannedTask, TaskRunInput } from '../../../../src/services/orchestrator/engine/types.js'
import { nodePlatform, openAiAnswer, startScriptedServer, type ScriptedServer } from './peers.js'

let server: ScriptedServer
const temp: string[] = []
before(async () => {
  server = await startScriptedServer()
})
after(async () => {
  await server.close()
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true })
})

function gitRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-runtask-'))
  temp.push(dir)
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.name', 'Test')
  git('config', 'user.email', 'test@example.com')
  fs.mkdirSync(path.join(dir, 'src'))
  fs.writeFileSync(path.join(dir, 'src/greet.ts'), 'export const greeting = "hello"\nexport const target = "world"\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'init')
  return dir
}

const task: PlannedTask = {
  key: '1',
  title: 'Greet louder',
  description: 'Say HELLO.',
  dependencies: [],
  files: ['src/greet.ts'],
  goCriteria: ['greeting is HELLO'],
  noGoCriteria: [],
  priority: 'NORMAL',
  expectChange: true
}

function input(dir: string, signal: AbortSignal = new AbortController().signal): TaskRunInput & { beats: string[] } {
  const beats: string[] = []
  return {
    projectRoot: dir,
    sprintId: 's1',
    taskId: 't1',
    task,
    attempt: 1,
    logFile: path.join(dir, '..', `${path.basename(dir)}.log`),
    logCapBytes: 1 << 20,
    timeoutMs: 5000,
    signal,
    onHeartbeat: (beat) => beats.push(beat.currentAction),
    onProcess: () => {},
    onUsage: () => {},
    beats
  }
}

const agent = (): ProviderAgent => ({
  kind: 'openai-compatible',
  base_url: server.baseUrl,
  model: 'coder',
  price_per_mtok: { input: 1, output: 2 }
})
const GOOD =
  '--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1,2 +1,2 @@\n' +
  '-export const greeting = "hello"\n+export const greeting = "HELLO"\n export const target = "world"\n'

test(
  'runProviderTask: a valid diff is applied, the file changes, ' + 'the prompt carried the file, the log holds answer and outcome',
  async () => {
    const dir = gitRepo()
    const run = input(dir)
    temp.push(run.logFile)
    server.replies.push(openAiAnswer(`Here:\n\`\`\`diff\n${GOOD}\`\`\``, { prompt_tokens: 100, completion_tokens: 50 }))
    const result = await runProviderTask(run, agent(), dir, nodePlatform)
    assert.deepEqual(result, {
      status: 'applied',
      reason: 'diff applied to 1 file(s)',
      usage: { inputTokens: 100, outputTokens: 50, costUsd: 0.0002, model: 'test-model' },
      transient: false,
      filesChanged: ['src/greet.ts']
    })
    assert.equal(
      fs.readFileSync(path.join(dir, 'src/greet.ts'), 'utf8'),
      'export const greeting = "HELLO"\nexport const target = "world"\n'
    )
    const prompt = server.requests.at(-1)!.body.messages[1].content as string
    assert.match(prompt, /export const greeting = "hello"/)
    const log = fs.readFileSync(run.logFile, 'utf8')
    assert.match(log, /```diff/)
    assert.match(log, /applied to src\/greet\.ts/)
    assert.deepEqual(run.beats, ['asking coder for a diff', 'applying the diff', 'diff applied'])
  }
)

test("runProviderTask: a diff whose context does not match → not_applicable with git's reason, nothing changed", async () => {
  const dir = gitRepo()
  const run = input(dir)
  temp.push(run.logFile)
  server.replies.push(openAiAnswer(`\`\`\`diff\n${GOOD.replace(/hello/g, 'goodbye')}\`\`\``))
  const result = await runProviderTask(run, agent(), dir, nodePlatform)
  assert.equal(result.status, 'not_applicable')
  assert.equal(result.transient, false)
  assert.match(result.reason, /patch failed: src\/greet\.ts:1/)
  assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }), '')
})

test('runProviderTask: no diff → no_diff with usage; provider 503 → transient provider_error; cancel → cancelled', async () => {
  const dir = gitRepo()
  const run = input(dir)
  temp.push(run.logFile)
  server.replies.push(openAiAnswer('Nothing to change, it already says hello.'))
  const none = await runProviderTask(run, agent(), dir, nodePlatform)
  assert.equal(none.status, 'no_diff')
  assert.equal(none.usage.inputTokens, 10)

  server.replies.push({ status: 503, body: { error: 'overloaded' } })
  const failed = await runProviderTask(run, agent(), dir, nodePlatform)
  assert.deepEqual([failed.status, failed.transient], ['provider_error', true])
  assert.match(failed.reason, /HTTP 503: overloaded/)

  const controller = new AbortController()
  server.replies.push({ delayMs: 2000, ...openAiAnswer('late') })
  setTimeout(() => controller.abort(), 50)
  const cancelled = await runProviderTask(input(dir, controller.signal), agent(), dir, nodePlatform)
  assert.deepEqual([cancelled.status, cancelled.transient], ['cancelled', false])
})

test('applyDiff: creates files outside a git repository, accepts prefix-less diffs, refuses paths leaving the tree', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-nogit-'))
  temp.push(dir)
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'one\n')
  const created = await applyDiff(dir, '--- /dev/null\n+++ b/new/file.txt\n@@ -0,0 +1,2 @@\n+first\n+second\n', nodePlatform)
  assert.deepEqual(created, { applied: true, files: ['new/file.txt'] })
  assert.equal(fs.readFileSync(path.join(dir, 'new/file.txt'), 'utf8'), 'first\nsecond\n')
  // Wrong hunk counts (models get them wrong) and no a/ b/ prefixes.
  const edited = await applyDiff(dir, '--- notes.txt\n+++ notes.txt\n@@ -1,5 +1,9 @@\n-one\n+uno\n', nodePlatform)
  assert.deepEqual(edited, { applied: true, files: ['notes.txt'] })
  assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'uno\n')
  const escape = await applyDiff(dir, '--- a/../evil.txt\n+++ b/../evil.txt\n@@ -0,0 +1 @@\n+x\n', nodePlatform)
  assert.equal(escape.applied, false)
  assert.match(escape.reason ?? '', /outside the work tree: \.\.\/evil\.txt/)
  assert.equal((await applyDiff(dir, 'not a diff\n', nodePlatform)).applied, false)
})
