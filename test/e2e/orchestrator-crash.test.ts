import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { eventually, liveMembers, pidIn, sandbox, tracked } from './orchestrator.sandbox.js'

test(
  'crash safety: kill -9 of the job → ORPHANED (never "running"), ' + 'its agents stopped, finished work kept, run --resume completes',
  async () => {
    const box = await sandbox({ directives: '## Task 1: quick\nWrite.\n\n## Task 2: slow\nAgent: slow\nTakes long.\n' })
    assert.equal((await box.cli('plan')).code, 0)
    const detached = await box.cli('run', '--detach')
    assert.equal(detached.code, 0, detached.stderr)
    assert.match(detached.stdout, /Started sprint s1 .*job \d+, pid \d+, 2 tasks/)
    const pidFile = path.join(box.state, 'slow.pid')
    const running = await eventually(
      async () => {
        if (pidIn(pidFile) === null) return null
        const status = await box.statusJson()
        return status.tasks[0].status === 'DONE' && status.tasks[1].status === 'EXECUTING' ? status : null
      },
      90_000,
      'the quick task DONE while the slow agent sleeps'
    )
    assert.equal(running.lifecycle, 'ACTIVE')
    const agentPid = pidIn(pidFile)!
    tracked.add(agentPid)
    const jobPid: number = running.job.pid
    process.kill(jobPid, 'SIGKILL')
    await eventually(() => liveMembers(jobPid).length === 0, 10_000, 'the job process to die')
    // No status read, no server: the job's watchdog stops its agents by itself.
    await eventually(() => liveMembers(agentPid).length === 0, 15_000, 'the orphaned agent to be stopped without a reader')

    const status = await box.cli('status')
    assert.equal(status.code, 2, `status exits 2 for an ORPHANED sprint: ${status.stderr}`)
    assert.match(status.stdout, /^lifecycle\s+ORPHANED \(job process \d+ died\)$/m)
    assert.doesNotMatch(status.stdout, /RUNNING|ACTIVE|EXECUTING/)
    assert.match(status.stdout, /^s1-1\s+DONE\s+1\s+quartet\/s1\/s1-1/m)
    assert.match(status.stdout, /^s1-2\s+ORPHANED\s+/m)
    assert.match(status.stdout, /Recover with: quartet run --resume/)
    assert.deepEqual(liveMembers(agentPid), [], 'the orphaned agent (sleep included) stays stopped')
    const json = await box.statusJson()
    assert.equal(json.lifecycle, 'ORPHANED')
    assert.equal(json.active, false)
    assert.equal(json.recoveryCommand, 'quartet run --resume')
    const firstCommit = box.git('rev-parse', 'quartet/s1/s1-1')

    // The obvious next commands lead to the resume instead of abandoning the sprint.
    const run = await box.cli('run')
    assert.notEqual(run.code, 0)
    assert.match(run.stderr, /sprint s1 was left ORPHANED with 1 unfinished task \(s1-2\): resume it with quartet run --resume/)
    const plan = await box.cli('plan')
    assert.notEqual(plan.code, 0)
    assert.match(plan.stderr, /Sprint s1 was left ORPHANED .*quartet run --resume, or plan anyway with quartet plan --force/)
    assert.equal((await box.statusJson()).lifecycle, 'ORPHANED')

    fs.writeFileSync(path.join(box.state, 'quick'), '')
    const resumed = await box.cli('run', '--resume')
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr)
    assert.match(resumed.stdout, /Resuming sprint s1/)
    assert.match(resumed.stdout, /s1-2 DONE agent exited 0, 1 file changed/)
    assert.doesNotMatch(resumed.stdout, /s1-1 (EXECUTING|DONE)/, 'the finished task is not run again')
    assert.equal(box.git('rev-parse', 'quartet/s1/s1-1'), firstCommit, 'the earlier work is still on its branch')
    assert.equal(box.git('show', 'quartet/s1/s1-1:work-s1-1.txt'), 's1-1 was here\n')
    assert.equal(box.git('show', 'quartet/s1/s1-2:work-s1-2.txt'), 's1-2 again\n')
    assert.equal((await box.statusJson()).lifecycle, 'COMPLETE')
    assert.equal((await box.cli('status')).code, 0, 'status exits 0 for a COMPLETE sprint')
  }
)
