import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eventually, liveMembers, pidIn, processLives, sandbox, tracked } from './orchestrator.sandbox.js'

/** Live job-watchdog processes working for this sandbox (their environment names its data dir; they run in "/"). */
function watchdogsOf(dataDir: string): number[] {
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('job-watchdog')) continue
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0')
      if (environ.includes(`QUARTET_DATA_DIR=${dataDir}`) && processLives(Number(entry))) found.push(Number(entry))
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
    () => watchdogsOf(box.env.QUARTET_DATA_DIR!).length === 0,
    15_000,
    () => `the watchdogs ${watchdogsOf(box.env.QUARTET_DATA_DIR!).join(', ')} to exit`
  )

  fs.writeFileSync(path.join(box.root, 'DIRECTIVES.md'), '## Task 1: slow\nAgent: slow\nTakes long.\n')
  assert.equal((await box.cli('plan')).code, 0)
  const detached = await box.cli('run', '--detach')
  assert.equal(detached.code, 0, detached.stderr)
  const pidFile = path.join(box.state, 'slow.pid')
  const status = await eventually(async () => (pidIn(pidFile) !== null ? await box.statusJson() : null), 90_000, 'the slow agent to start')
  const jobPid: number = status.job.pid
  const agentPid = pidIn(pidFile)!
  tracked.add(agentPid)
  const watchdogs = watchdogsOf(box.env.QUARTET_DATA_DIR!)
  assert.equal(watchdogs.length, 1, 'the running job has its one watchdog')
  // In "/", not the project: a removed project directory must not break it (module loading resolves against the cwd).
  for (const pid of watchdogs) assert.equal(fs.readlinkSync(`/proc/${pid}/cwd`), '/')
  for (const pid of watchdogs) tracked.add(pid)
  process.kill(jobPid, 'SIGKILL')
  await eventually(() => liveMembers(agentPid).length === 0, 15_000, 'the agent to be stopped by the watchdog')
  await eventually(
    () => watchdogsOf(box.env.QUARTET_DATA_DIR!).length === 0,
    15_000,
    () => `the watchdogs ${watchdogsOf(box.env.QUARTET_DATA_DIR!).join(', ')} to exit`
  )
})
