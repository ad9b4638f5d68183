import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { runDoctor } from '../../../../src/services/orchestrator/engine/doctor.js'
import { loadProjectConfig, mergeProjectConfig } from '../../../../src/services/orchestrator/project/config.js'
import { nodePlatform, startScriptedServer } from '../providers/peers.js'

const temp: string[] = []
after(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true })
})
function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-doctor-${label}-`))
  temp.push(dir)
  return dir
}

const gitDir = path.dirname(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim())

test('doctor on a git project: git, repository, data dir, config, command agent on PATH, provider probe', async () => {
  const root = tempDir('repo')
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root })
  const bin = tempDir('bin')
  fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
  const provider = await startScriptedServer({ body: { data: [{ id: 'm' }] } })
  try {
    const merged = mergeProjectConfig(root, {
      agents: {
        claude: { kind: 'command', preset: 'claude' },
        custom: { kind: 'command', argv: ['my-agent', '{prompt}'] },
        llm: { kind: 'openai-compatible', base_url: provider.baseUrl, model: 'm' }
      },
      default_agent: 'claude'
    })
    assert.equal(merged.ok, true)
    const dataDir = path.join(tempDir('data'), 'nested')
    const report = await runDoctor({
      root,
      dataDir,
      configResult: loadProjectConfig(root),
      platform: nodePlatform,
      env: { PATH: `${bin}${path.delimiter}${gitDir}` }
    })
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]))
    assert.equal(report.ok, true)
    assert.match(byName.git!.message, /^git version /)
    assert.deepEqual([byName['git repository']!.passed, byName['git repository']!.required], [true, false])
    assert.deepEqual([byName['data directory']!.passed, fs.readdirSync(dataDir)], [true, []])
    assert.equal(byName['project config']!.message, '.quartet/config.json is valid')
    assert.deepEqual(byName['agent claude'], {
      name: 'agent claude',
      passed: true,
      message: `claude → ${path.join(bin, 'claude')} (permissions worktree)`,
      required: true
    })
    assert.deepEqual(byName['agent custom'], { name: 'agent custom', passed: false, message: 'my-agent is not on PATH', required: false })
    assert.deepEqual([byName['agent llm']!.passed, byName['agent llm']!.required], [true, false])
    assert.equal(provider.requests[0]?.url, '/v1/models')
  } finally {
    await provider.close()
  }
})

test('doctor on a non-git dir: not a repository (not required), no agents, unwritable data dir, invalid config → not ok', async () => {
  const root = tempDir('plain')
  const blocker = path.join(root, 'a-file')
  fs.writeFileSync(blocker, '')
  fs.mkdirSync(path.join(root, '.quartet'))
  fs.writeFileSync(path.join(root, '.quartet/config.json'), '{"engine": {"max_workers": "many"}}')
  const report = await runDoctor({
    root,
    dataDir: path.join(blocker, 'data'),
    configResult: loadProjectConfig(root),
    platform: nodePlatform,
    env: { PATH: gitDir }
  })
  const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]))
  assert.equal(report.ok, false)
  assert.equal(byName.git!.passed, true)
  assert.deepEqual([byName['git repository']!.passed, byName['git repository']!.required], [false, false])
  assert.match(byName['git repository']!.message, /is not a git repository/)
  assert.match(byName['data directory']!.message, /is not writable: .*ENOTDIR/)
  assert.equal(byName['project config']!.message, '1 problem(s): engine.max_workers: must be integer')
  assert.deepEqual([byName.agents!.passed, byName.agents!.required], [false, true])
})

test('doctor with a config file that is not valid JSON: the agents check points at the file, not at quartet init', async () => {
  const root = tempDir('badjson')
  fs.mkdirSync(path.join(root, '.quartet'))
  fs.writeFileSync(path.join(root, '.quartet/config.json'), '{"agents": {"sh": {"kind": "command", "argv": ["sh"]}}')
  const report = await runDoctor({
    root,
    dataDir: path.join(root, 'data'),
    configResult: loadProjectConfig(root),
    platform: nodePlatform,
    env: { PATH: gitDir }
  })
  const agents = report.checks.find((c) => c.name === 'agents')!
  assert.equal(agents.passed, false)
  assert.match(agents.message, /config\.json is invalid/)
  assert.doesNotMatch(agents.message, /quartet init/)
})

test('doctor without git on PATH: the git check fails and is required', async () => {
  const root = tempDir('nogit')
  const report = await runDoctor({
    root,
    dataDir: path.join(root, 'data'),
    configResult: loadProjectConfig(root),
    platform: nodePlatform,
    env: { PATH: tempDir('emptybin') }
  })
  const git = report.checks.find((c) => c.name === 'git')!
  assert.deepEqual([git.passed, git.required, report.ok], [false, true, false])
  assert.match(git.message, /git is not available: .*ENOENT/)
  assert.equal(
    report.checks.find((c) => c.name === 'project config')?.message,
    'no .quartet/config.json: built-in defaults in use (run quartet init)'
  )
})
