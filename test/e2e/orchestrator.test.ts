import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { sandbox, TWO_TASKS } from './orchestrator.sandbox.js'

test('init → plan → run → status → logs: every task DONE on its own branch, the main checkout untouched', async () => {
  const box = await sandbox()
  const init = await box.cli('init')
  assert.equal(init.code, 0, init.stderr)
  assert.match(init.stdout, /created \.quartet\/config\.json/)
  assert.match(init.stdout, /added \.quartet\/ to \.git\/info\/exclude/)
  assert.match(init.stdout, /created DIRECTIVES\.md/)
  assert.match(init.stdout, /Next steps:[\s\S]*quartet plan[\s\S]*quartet run/)
  assert.match(fs.readFileSync(path.join(box.root, '.git', 'info', 'exclude'), 'utf8'), /^\.quartet\/$/m)
  assert.match(fs.readFileSync(path.join(box.root, 'DIRECTIVES.md'), 'utf8'), /## Task 1:[\s\S]*## Task 2:/)
  const fresh = await box.cli('plan')
  assert.equal(fresh.code, 2, 'the template alone plans nothing: its example is fenced')

  const configFile = path.join(box.root, '.quartet', 'config.json')
  fs.writeFileSync(configFile, JSON.stringify({ agents: box.agents, default_agent: 'edit' }))
  fs.writeFileSync(path.join(box.root, 'DIRECTIVES.md'), TWO_TASKS)
  const again = await box.cli('init')
  assert.match(again.stdout, /kept\s+\.quartet\/config\.json: it already exists and is never overwritten/)
  assert.equal(fs.readFileSync(configFile, 'utf8'), JSON.stringify({ agents: box.agents, default_agent: 'edit' }))
  assert.equal(fs.readFileSync(path.join(box.root, 'DIRECTIVES.md'), 'utf8'), TWO_TASKS)

  const doctor = await box.cli('doctor')
  assert.equal(doctor.code, 0, doctor.stdout)
  assert.match(doctor.stdout, /✔ agent edit: \/bin\/sh/)
  const plan = await box.cli('plan')
  assert.equal(plan.code, 0, plan.stderr)
  assert.match(plan.stdout, /^s1-1\s+first\s+-\s+edit \(default\)\s+NORMAL\s+-$/m)
  assert.match(plan.stdout, /^s1-2\s+second\s+1\s+edit \(default\)\s+NORMAL\s+-$/m)

  const head = box.git('rev-parse', 'HEAD')
  const run = await box.cli('run')
  assert.equal(run.code, 0, run.stdout + run.stderr)
  assert.match(run.stdout, /^\d\d:\d\d:\d\d s1-1 DONE agent exited 0, 1 file changed, committed [0-9a-f]{7}$/m)
  assert.match(run.stdout, /^\d\d:\d\d:\d\d s1-2 DONE agent exited 0, 1 file changed, committed [0-9a-f]{7}$/m)
  assert.match(run.stdout, /Sprint s1: 2\/2 tasks DONE/)
  assert.equal(run.stdout.includes('\x1b['), false, 'no colours or redraws in a pipe')

  assert.deepEqual(box.git('branch', '--list', 'quartet/*', '--format=%(refname:short)').trim().split('\n'), [
    'quartet/s1/s1-1',
    'quartet/s1/s1-2'
  ])
  assert.equal(box.git('show', 'quartet/s1/s1-1:work-s1-1.txt'), 's1-1 was here\n')
  assert.equal(box.git('show', 'quartet/s1/s1-2:work-s1-2.txt'), 's1-2 was here\n')
  assert.equal(box.git('rev-parse', 'HEAD'), head)
  assert.equal(box.git('status', '--porcelain'), '?? DIRECTIVES.md\n', "only the user's own file; no agent work in the main checkout")
  assert.equal(fs.existsSync(path.join(box.root, 'work-s1-1.txt')), false)

  const status = await box.cli('status')
  assert.match(status.stdout, /^lifecycle\s+COMPLETE$/m)
  assert.match(status.stdout, /^s1-1\s+DONE\s+1\s+quartet\/s1\/s1-1/m)
  const json = await box.statusJson()
  assert.equal(json.lifecycle, 'COMPLETE')
  assert.equal(json.active, false)
  assert.deepEqual(
    json.tasks.map((t: any) => t.status),
    ['DONE', 'DONE']
  )
  const logs = await box.cli('logs', '1')
  assert.equal(logs.code, 0, logs.stderr)
  assert.match(logs.stdout, /agent for s1-1 in .*s1-1/)
  assert.match(logs.stdout, /changed work-s1-1\.txt/)

  // Cleanup keeps what is not merged or not committed, and removes what provably loses nothing.
  const kept = await box.cli('cleanup')
  assert.equal(kept.code, 0, kept.stderr)
  assert.match(kept.stdout, /^kept\s+quartet\/s1\/s1-1\s+\.quartet\/worktrees\/s1\/s1-1: commits not merged into \S+$/m)
  assert.match(kept.stdout, /^0 removed, 2 kept/m)
  box.git('merge', '-q', '--ff-only', 'quartet/s1/s1-2')
  fs.appendFileSync(path.join(box.root, '.quartet', 'worktrees', 's1', 's1-2', 'work-s1-2.txt'), 'not committed\n')
  const cleaned = await box.cli('cleanup')
  assert.equal(cleaned.code, 0, cleaned.stderr)
  assert.match(cleaned.stdout, /^removed\s+quartet\/s1\/s1-1\s+\.quartet\/worktrees\/s1\/s1-1$/m)
  assert.match(cleaned.stdout, /^kept\s+quartet\/s1\/s1-2\s+\.quartet\/worktrees\/s1\/s1-2: uncommitted changes$/m)
  assert.equal(fs.existsSync(path.join(box.root, '.quartet', 'worktrees', 's1', 's1-1')), false)
  assert.equal(
    fs.readFileSync(path.join(box.root, '.quartet', 'worktrees', 's1', 's1-2', 'work-s1-2.txt'), 'utf8'),
    's1-2 was here\nnot committed\n'
  )
})
