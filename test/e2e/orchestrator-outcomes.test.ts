import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { sandbox, TWO_TASKS } from './orchestrator.sandbox.js'

test('an agent that exits 0 without changing anything is NO_GO, and run exits 1', async () => {
  const box = await sandbox({ directives: '## Task 1: idle\nAgent: noop\nDo nothing.\n' })
  assert.equal((await box.cli('plan')).code, 0)
  const run = await box.cli('run')
  assert.equal(run.code, 1, run.stdout)
  assert.match(run.stdout, /s1-1 NO_GO agent exited 0 but changed no files/)
  assert.match(run.stdout, /\| looked around, nothing to change/)
  const json = await box.statusJson()
  assert.equal(json.tasks[0].status, 'NO_GO')
  assert.equal((await box.cli('status')).code, 1, 'status exits 1 while a task is NO_GO')
  assert.match(json.tasks[0].reason, /changed no files/)
})

test('errors explain themselves: bad config keys, an invalid plan with its lines, nothing planned, unknown tasks', async () => {
  const box = await sandbox({ config: { agents: {}, planner: { mode: 'psychic' }, engine: { max_workers: 0 } }, directives: TWO_TASKS })
  const badConfig = await box.cli('plan')
  assert.equal(badConfig.code, 2)
  assert.match(badConfig.stderr, /\.quartet\/config\.json is invalid:/)
  assert.match(badConfig.stderr, /engine\.max_workers: /)
  assert.match(badConfig.stderr, /planner\.mode: /)

  fs.writeFileSync(path.join(box.root, '.quartet', 'config.json'), JSON.stringify({ agents: box.agents, default_agent: 'edit' }))
  fs.writeFileSync(path.join(box.root, 'DIRECTIVES.md'), '## Task 1: one\nAgent: nobody\nx\n\n## Task 2\ny\n')
  const badPlan = await box.cli('plan')
  assert.equal(badPlan.code, 2)
  assert.match(badPlan.stderr, /^ {2}line 2: .*nobody/m)
  assert.match(badPlan.stderr, /^ {2}line 5: .*empty title/m)

  const notPlanned = await box.cli('run')
  assert.equal(notPlanned.code, 2)
  assert.match(notPlanned.stderr, /Nothing is planned: run quartet plan first\./)
  const nothingToResume = await box.cli('run', '--resume')
  assert.equal(nothingToResume.code, 2)
  assert.match(nothingToResume.stderr, /Nothing to resume/)
  const unknownTask = await box.cli('logs', 's9-9')
  assert.equal(unknownTask.code, 2)
  assert.match(unknownTask.stderr, /Unknown task "s9-9": nothing is planned/)
  const missingProject = await runCli(['status', '--project', path.join(box.root, 'missing')], box.env)
  assert.equal(missingProject.code, 2)
  assert.match(missingProject.stderr, /project directory .*missing does not exist/)
})
