import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { eventually, liveMembers, pidIn, sandbox, tracked } from './orchestrator.sandbox.js'

test('quartet kill stops the job and its agent process group; a following run exits 1', async () => {
  const box = await sandbox({ directives: '## Task 1: slow\nAgent: slow\nTakes long.\n' })
  assert.equal((await box.cli('plan')).code, 0)
  assert.equal((await box.cli('run', '--detach')).code, 0)
  const pidFile = path.join(box.state, 'slow.pid')
  const agentPid = await eventually(() => pidIn(pidFile), 90_000, 'the agent to start')
  tracked.add(agentPid)
  const jobPid: number = (await box.statusJson()).job.pid
  const following = box.spawnCli('run')
  // The follower attaches to the active job instead of starting another.
  await eventually(() => /A run is already active: job \d+/.test(following.output()), 60_000, 'the follower to attach')
  assert.ok(liveMembers(agentPid).length > 0, 'the agent is running')
  const cleanup = await box.cli('cleanup')
  assert.deepEqual([cleanup.code, cleanup.stderr.trim()], [1, 'A sprint is active: wait for it or stop it with quartet kill.'])

  const killed = await box.cli('kill')
  assert.equal(killed.code, 0, killed.stderr)
  if (!killed.stdout.startsWith('Killed'))
    assert.fail(`${killed.stdout}\nfollower: ${following.output()}\nstatus: ${JSON.stringify(await box.statusJson())}`)
  assert.match(killed.stdout, new RegExp(`Killed job \\d+ \\(pid ${jobPid}\\); cancelled tasks: s1-1`))
  assert.deepEqual(liveMembers(agentPid), [], 'no agent process left')
  await eventually(() => liveMembers(jobPid).length === 0, 10_000, 'the job process to exit')
  const run = await following.done
  assert.equal(run.code, 1, run.stdout)
  assert.match(run.stdout, /A run is already active: job \d+/)
  assert.match(run.stdout, /s1-1\s+CANCELLED\s+killed by user/)
  const json = await box.statusJson()
  assert.equal(json.tasks[0].status, 'CANCELLED')
  assert.equal(json.lifecycle, 'ABORTED')
  assert.equal((await box.cli('kill')).stdout.trim(), 'Nothing to kill: no run is active.')
})
