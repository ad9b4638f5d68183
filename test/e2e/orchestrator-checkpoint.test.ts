import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eventually, pidIn, processLives, sandbox, tracked } from './orchestrator.sandbox.js'

test('kill -9 of the job during the check: the resume runs only the check on the committed work (one agent run, one commit)', async () => {
  const box = await sandbox({ directives: '## Task 1: edit\nWrite.\n' })
  const check = `if [ -f "${box.state}/pass" ]; then echo "check ok"; exit 0; fi; echo $$ > "${box.state}/check.pid"; sleep 120`
  fs.writeFileSync(
    path.join(box.root, '.quartet', 'config.json'),
    JSON.stringify({ agents: box.agents, default_agent: 'edit', engine: { kill_grace_seconds: 1 }, check: { command: check } })
  )
  assert.equal((await box.cli('plan')).code, 0)
  assert.equal((await box.cli('run', '--detach')).code, 0)
  const checkPidFile = path.join(box.state, 'check.pid')
  const checkPid = await eventually(() => pidIn(checkPidFile), 120_000, 'the check to start')
  tracked.add(checkPid)
  const committed = box.git('rev-parse', 'quartet/s1/s1-1').trim()
  const jobPid: number = (await box.statusJson()).job.pid
  process.kill(jobPid, 'SIGKILL')
  await eventually(() => !processLives(checkPid), 15_000, 'the check to be stopped with its job')

  fs.writeFileSync(path.join(box.state, 'pass'), '')
  const resumed = await box.cli('run', '--resume')
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr)
  assert.match(resumed.stdout, /s1-1 DONE finished, 1 file changed, committed [0-9a-f]{7}/)
  const task = (await box.statusJson()).tasks[0]
  assert.match(task.reason, /^agent exited 0, 1 file changed, committed [0-9a-f]{12}, check passed \(agent work of attempt 1\)/)
  assert.equal(box.git('rev-parse', 'quartet/s1/s1-1').trim(), committed, 'no second commit')
  const log = fs.readFileSync(path.join(box.env.QUARTET_DATA_DIR!, 'orchestrator', 'logs', 's1', 's1-1.log'), 'utf8')
  assert.equal(log.split('agent for s1-1').length - 1, 1, 'the agent ran once')
  assert.match(log, /\[quartet\] checkpoint: agent finished, work committed at [0-9a-f]{12}/)
  assert.match(log, /the agent finished in attempt 1, its work is committed at [0-9a-f]{12}: running only the check/)
  assert.match(log, /check ok/)
})
