import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { createClaudeStreamParser } from '../../../../src/services/orchestrator/engine/agents/claude-stream-json.js'
import {
  COMMAND_PRESETS,
  resolveCommand,
  substitutePlaceholders
} from '../../../../src/services/orchestrator/engine/agents/command-agent.js'
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

test("presets and overrides: claude reads stream-json, a configured argv replaces the preset's", () => {
  assert.deepEqual(resolveCommand('c', { kind: 'command', preset: 'claude' }, values), {
    command: 'claude',
    args: ['-p', 'do {workdir} it', '--output-format', 'stream-json', '--verbose'],
    output: 'claude-stream-json'
  })
  assert.deepEqual(resolveCommand('a', { kind: 'command', preset: 'aider' }, values).args, ['--yes-always', '--message', 'do {workdir} it'])
  assert.deepEqual(COMMAND_PRESETS.codex.argv, ['codex', 'exec', '{prompt}'])
  assert.deepEqual(COMMAND_PRESETS.gemini.argv, ['gemini', '-p', '{prompt}'])
  const custom = resolveCommand('g', { kind: 'command', preset: 'gemini', argv: ['my-gemini', '--file', '{promptFile}'] }, values)
  assert.deepEqual(custom, { command: 'my-gemini', args: ['--file', '/data/p.md'], output: 'text' })
  assert.throws(() => resolveCommand('empty', { kind: 'command' }, values), /agent "empty" has neither a preset/)
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

test('claude stream-json: usage from the final result, model from init, other lines ignored', () => {
  const parser = createClaudeStreamParser()
  for (const line of [
    'not json',
    '{broken',
    '[1,2]',
    '{"type":"system","subtype":"init","model":"claude-opus-4"}',
    '{"type":"assistant","message":{"usage":{"input_tokens":99}}}'
  ])
    parser.onLine(line)
  assert.equal(parser.result(), undefined)
  parser.onLine('{"type":"assistant","message":{"content":[{"type":"text","text":"Reading the form\\nmore"}]}}')
  assert.equal(parser.activity(), 'Reading the form')
  parser.onLine('{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{}}]}}')
  assert.equal(parser.activity(), 'using Edit')
  parser.onLine(
    '  {"type":"result","is_error":false,"result":"ok","usage":{"input_tokens":7,"cache_read_input_tokens":3,"output_tokens":4}}  '
  )
  assert.deepEqual(parser.result(), {
    usage: { inputTokens: 10, outputTokens: 4, costUsd: null, model: 'claude-opus-4' },
    isError: false,
    text: 'ok'
  })
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
