import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { initProject, loadProjectConfig, projectConfigPath } from '../../../../src/services/orchestrator/project/config.js'
import { detectAgents, ollamaBaseUrl } from '../../../../src/services/orchestrator/project/detect.js'
import { nodePlatform, startScriptedServer } from '../providers/peers.js'

const temp: string[] = []
after(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true })
})
function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-${label}-`))
  temp.push(dir)
  return dir
}

/** A PATH dir with real scripts: executable claude and aider, a non-executable codex, a gemini directory. */
function fakeBin(): string {
  const bin = tempDir('bin')
  for (const name of ['claude', 'aider']) fs.writeFileSync(path.join(bin, name), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
  fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n', { mode: 0o644 })
  fs.mkdirSync(path.join(bin, 'gemini'))
  return bin
}

test('detectAgents: executables on PATH become command agents; a live ollama gives an agent with its first model', async () => {
  const bin = fakeBin()
  const ollama = await startScriptedServer({ body: { models: [{ name: 'qwen2.5-coder:7b' }, { name: 'llama3' }] } })
  try {
    const { agents, notes } = await detectAgents(nodePlatform, {
      PATH: `/nonexistent${path.delimiter}${bin}`,
      OLLAMA_HOST: ollama.baseUrl.replace('http://', '')
    })
    assert.deepEqual(agents, {
      claude: { kind: 'command', preset: 'claude', permissions: 'worktree' },
      aider: { kind: 'command', preset: 'aider', permissions: 'worktree' },
      ollama: { kind: 'ollama', base_url: ollama.baseUrl, model: 'qwen2.5-coder:7b' }
    })
    assert.equal(ollama.requests[0]?.url, '/api/tags')
    assert.ok(notes.includes(`claude: ${path.join(bin, 'claude')} (Claude Code)`))
  } finally {
    await ollama.close()
  }
})

test('detectAgents: nothing on PATH, ollama not reachable → no agents, a note saying why', async () => {
  const gone = await startScriptedServer()
  const url = gone.baseUrl
  await gone.close()
  const { agents, notes } = await detectAgents(nodePlatform, { PATH: tempDir('empty'), OLLAMA_HOST: url })
  assert.deepEqual(agents, {})
  assert.match(notes.join('\n'), /ollama: not reachable at http:\/\/127\.0\.0\.1:\d+/)
})

test('ollamaBaseUrl: default, host only, host:port, URL, 0.0.0.0', () => {
  assert.equal(ollamaBaseUrl({}), 'http://127.0.0.1:11434')
  assert.equal(ollamaBaseUrl({ OLLAMA_HOST: 'gpu-box' }), 'http://gpu-box:11434')
  assert.equal(ollamaBaseUrl({ OLLAMA_HOST: '10.0.0.5:9999' }), 'http://10.0.0.5:9999')
  assert.equal(ollamaBaseUrl({ OLLAMA_HOST: 'https://ollama.example.com' }), 'https://ollama.example.com')
  assert.equal(ollamaBaseUrl({ OLLAMA_HOST: 'http://box:8080/' }), 'http://box:8080')
  assert.equal(ollamaBaseUrl({ OLLAMA_HOST: '0.0.0.0' }), 'http://127.0.0.1:11434')
})

test('initProject: writes the detected agents (0600), excludes .quartet/ in git once, never overwrites', () => {
  const root = tempDir('init')
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root })
  const first = initProject(root, {
    claude: { kind: 'command', preset: 'claude' },
    ollama: { kind: 'ollama', base_url: 'http://127.0.0.1:11434', model: 'm' }
  })
  assert.deepEqual(first, { configPath: projectConfigPath(root), configCreated: true, agents: ['claude', 'ollama'], gitExclude: 'added' })
  const loaded = loadProjectConfig(root)
  assert.deepEqual(loaded.errors, [])
  assert.equal(loaded.config.default_agent, 'claude')
  assert.equal(fs.statSync(projectConfigPath(root)).mode & 0o777, 0o600)
  const exclude = fs.readFileSync(path.join(root, '.git/info/exclude'), 'utf8')
  assert.equal(exclude.split('\n').filter((l) => l === '.quartet/').length, 1)
  // git itself now ignores the directory.
  assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }), '')

  const before = fs.readFileSync(projectConfigPath(root), 'utf8')
  const second = initProject(root, {})
  assert.deepEqual(second, { configPath: projectConfigPath(root), configCreated: false, agents: [], gitExclude: 'present' })
  assert.equal(fs.readFileSync(projectConfigPath(root), 'utf8'), before)
  assert.deepEqual(fs.readdirSync(path.join(root, '.quartet')), ['config.json'])
})

test('initProject: in a linked worktree the exclude goes to the shared git dir; outside git nothing is excluded', () => {
  const main = tempDir('init-main')
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' })
  git(main, 'init', '-q', '-b', 'main')
  git(main, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'init')
  const linked = path.join(tempDir('init-linked'), 'wt')
  git(main, 'worktree', 'add', '-q', '-b', 'side', linked)
  assert.equal(initProject(linked, {}).gitExclude, 'added')
  assert.match(fs.readFileSync(path.join(main, '.git/info/exclude'), 'utf8'), /^\.quartet\/$/m)
  assert.equal(git(linked, 'status', '--porcelain'), '')

  const plain = tempDir('init-plain')
  const result = initProject(plain, {})
  assert.deepEqual([result.configCreated, result.gitExclude], [true, 'not-a-git-repo'])
  assert.deepEqual(JSON.parse(fs.readFileSync(projectConfigPath(plain), 'utf8')), { agents: {} })
})
