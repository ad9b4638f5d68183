import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eventually, liveMembers, processLives, sandbox, tracked } from './orchestrator.sandbox.js'

/** Live job-watchdog processes working for this project (they run in the project directory, like their job). */
function watchdogsOf(root: string): number[] {
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('job-watchdog')) continue
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === root && processLives(Number(entry))) found.push(Number(entry))
    } catch {
      /* exited meanwhile, or another user's */
    }
  }
  return found
}

test('a job watchdog never outlives its job: none remains after a normal run, nor after kill -9 of the job', async () => {
  const box = await sandbox({ directives: '## Task 1: one\nWrite.\n\n## Task 2: two\nWrite more.\n' })
  assert.equal((await box.cli('plan')).code, 0)
  const run = await box.cli('run')
  assert.equal(run.code, 0, run.stdout + run.stderr)
  assert.equal((await box.statusJson()).lifecycle, 'COMPLETE')
  await eventually(
    () => watchdogsOf(box.root).length === 0,
    15_000,
    () => `the watchdogs ${watchdogsOf(box.root).join(', ')} to exit`
  )

  fs.writeFileSync(path.join(box.root, 'DIRECTIVES.md'), '## Task 1: slow\nAgent: slow\nTakes long.\n')
  assert.equal((await box.cli('plan')).code, 0)
  const detached = await box.cli('run', '--detach')
  assert.equal(detached.code, 0, detached.stderr)
  const pidFile = path.join(box.state, 'slow.pid')
  const status = await eventually(async () => (fs.existsSync(pidFile) ? await box.statusJson() : null), 90_000, 'the slow agent to start')
  const jobPid: number = status.job.pid
  const agentPid = Number(fs.readFileSync(pidFile, 'utf8'))
  tracked.add(agentPid)
  const watchdogs = watchdogsOf(box.root)
  assert.equal(watchdogs.length, 1, 'the running job has its one watchdog')
  for (const pid of watchdogs) tracked.add(pid)
  process.kill(jobPid, 'SIGKILL')
  await eventually(() => liveMembers(agentPid).length === 0, 15_000, 'the agent to be stopped by the watchdog')
  await eventually(
    () => watchdogsOf(box.root).length === 0,
    15_000,
    () => `the watchdogs ${watchdogsOf(box.root).join(', ')} to exit`
  )
})
