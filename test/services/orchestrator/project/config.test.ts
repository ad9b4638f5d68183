import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { loadProjectConfig, mergeProjectConfig, projectConfigPath } from '../../../../src/services/orchestrator/project/config.js'
import { DEFAULT_PROJECT_CONFIG } from '../../../../src/services/orchestrator/project/config-schema.js'

const temp: string[] = []
after(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true })
})

function project(config?: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-config-'))
  temp.push(root)
  if (config !== undefined) {
    fs.mkdirSync(path.join(root, '.quartet'))
    fs.writeFileSync(projectConfigPath(root), config)
  }
  return root
}

test('load: a missing file gives the defaults, no errors', () => {
  const result = loadProjectConfig(project())
  assert.deepEqual(result, { config: DEFAULT_PROJECT_CONFIG, raw: null, exists: false, errors: [] })
})

test('load: the file is deep-merged over the defaults', () => {
  const raw = {
    engine: { max_workers: 4 },
    agents: { claude: { kind: 'command', preset: 'claude' } },
    default_agent: 'claude'
  }
  const result = loadProjectConfig(project(JSON.stringify(raw)))
  assert.deepEqual(result.errors, [])
  assert.equal(result.config.engine.max_workers, 4)
  assert.equal(result.config.engine.task_timeout_seconds, DEFAULT_PROJECT_CONFIG.engine.task_timeout_seconds)
  assert.equal(result.config.default_agent, 'claude')
  assert.deepEqual(result.raw, raw)
})

test('load: a key Quartet does not know is an error naming it (it would otherwise do nothing, silently)', () => {
  const result = loadProjectConfig(project(JSON.stringify({ default_agent_typo: 'claude', engine: { max_worker: 4 } })))
  assert.deepEqual(
    result.errors.map((e) => [e.path, e.message]),
    [
      ['', 'must not have additional properties (default_agent_typo)'],
      ['engine', 'must not have additional properties (max_worker)']
    ]
  )
})

test('load: unreadable JSON names the file and the line and column', () => {
  const root = project('{\n  "engine": {\n    "max_workers": 3,\n  }\n}\n')
  const result = loadProjectConfig(root)
  assert.equal(result.exists, true)
  assert.equal(result.raw, null)
  assert.equal(result.errors.length, 1)
  assert.match(
    result.errors[0]!.message,
    new RegExp(`^${projectConfigPath(root).replace(/[.]/g, '\\.')}: invalid JSON at line 4, column 3`)
  )
  assert.match(loadProjectConfig(project('[1, 2]')).errors[0]!.message, /must hold a JSON object/)
})

test('load: schema errors per field, agents checked by their kind, references checked', () => {
  const raw = {
    engine: { max_workers: 0, surprise: 1 },
    planner: { mode: 'psychic' },
    agents: {
      cli: { kind: 'command', preset: 'vim' },
      llm: { kind: 'openai-compatible', base_url: 'ftp://x', model: 'm' },
      odd: { kind: 'telepathy' },
      'bad name!': { kind: 'command' }
    }
  }
  const { errors } = loadProjectConfig(project(JSON.stringify(raw)))
  assert.deepEqual(errors, [
    { path: 'planner.mode', message: 'must be one of "auto", "structured", "ai"' },
    { path: 'engine', message: 'must not have additional properties (surprise)' },
    { path: 'engine.max_workers', message: 'must be >= 1' },
    { path: 'agents.cli.preset', message: 'must be one of "claude", "codex", "gemini", "opencode", "qwen", "aider"' },
    { path: 'agents.llm.base_url', message: 'must match pattern "^https?://"' },
    { path: 'agents.odd.kind', message: 'must be one of "command", "openai-compatible", "ollama"' },
    { path: 'agents.bad name!', message: 'agent names are 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit' }
  ])

  const refs = { agents: { cli: { kind: 'command', preset: 'claude' } }, default_agent: 'ghost', planner: { mode: 'ai', agent: 'cli' } }
  assert.deepEqual(loadProjectConfig(project(JSON.stringify(refs))).errors, [
    { path: 'default_agent', message: '"ghost" is not a configured agent (configured: cli)' },
    { path: 'planner.agent', message: '"cli" is a command agent; the planner needs a provider agent (openai-compatible or ollama)' },
    { path: 'planner.mode', message: '"ai" needs a provider agent (openai-compatible or ollama)' }
  ])
})

test('merge: objects merge, arrays replace, null deletes; written atomically with mode 0600 and no temp files left', () => {
  const root = project(
    JSON.stringify({ engine: { max_workers: 3 }, limits: { windows: [{ name: 'a', hours: 5 }] }, api_auth_token: 'x'.repeat(20) })
  )
  const result = mergeProjectConfig(root, {
    engine: { use_worktrees: false },
    limits: { windows: [{ name: 'week', hours: 168, usd: 20 }] },
    api_auth_token: null,
    agents: { ol: { kind: 'ollama', base_url: 'http://127.0.0.1:11434', model: 'qwen' } }
  })
  assert.equal(result.ok, true)
  const written = JSON.parse(fs.readFileSync(projectConfigPath(root), 'utf8'))
  assert.deepEqual(written, {
    engine: { max_workers: 3, use_worktrees: false },
    limits: { windows: [{ name: 'week', hours: 168, usd: 20 }] },
    agents: { ol: { kind: 'ollama', base_url: 'http://127.0.0.1:11434', model: 'qwen' } }
  })
  assert.ok(
    result.ok &&
      result.config.engine.max_attempts === DEFAULT_PROJECT_CONFIG.engine.max_attempts &&
      result.config.engine.use_worktrees === false
  )
  assert.equal(fs.statSync(projectConfigPath(root)).mode & 0o777, 0o600)
  assert.deepEqual(fs.readdirSync(path.join(root, '.quartet')), ['config.json'])
})

test('merge: creates the file when absent; an invalid patch or a non-object leaves the file untouched', () => {
  const root = project()
  assert.equal(mergeProjectConfig(root, { api: { control_mutations: true } }).ok, true)
  const before = fs.readFileSync(projectConfigPath(root), 'utf8')
  const mtime = fs.statSync(projectConfigPath(root)).mtimeMs
  const bad = mergeProjectConfig(root, { engine: { max_workers: 1000 }, default_agent: 'nobody' })
  assert.deepEqual(bad, { ok: false, errors: [{ path: 'engine.max_workers', message: 'must be <= 64' }] })
  assert.deepEqual(mergeProjectConfig(root, [1]), { ok: false, errors: [{ path: '', message: 'the patch must be a JSON object' }] })
  assert.equal(fs.readFileSync(projectConfigPath(root), 'utf8'), before)
  assert.equal(fs.statSync(projectConfigPath(root)).mtimeMs, mtime)
  assert.deepEqual(fs.readdirSync(path.join(root, '.quartet')), ['config.json'])
})

test('merge: refuses to overwrite a file that does not parse', () => {
  const root = project('{ "engine": ')
  const result = mergeProjectConfig(root, { api: { control_mutations: true } })
  assert.equal(result.ok, false)
  assert.equal(fs.readFileSync(projectConfigPath(root), 'utf8'), '{ "engine": ')
})
