import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { createJobLivenessProbe } from '../../../../src/services/orchestrator/engine/liveness.js'

test('the throttled liveness probe sees a dead process at once, and a process younger than its job as not the job', async () => {
  const probe = createJobLivenessProbe({ intervalMs: 60_000 })
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    assert.equal(probe(child.pid!, Date.now()), true)
    assert.equal(probe(child.pid!, Date.now()), true)
    // Started a minute after the "job" it is asked about: a reused pid, not that job's process.
    assert.equal(createJobLivenessProbe()(child.pid!, Date.now() - 60_000), false)
  } finally {
    child.kill('SIGKILL')
  }
  await exited
  // Proven alive within the interval, yet kill(pid, 0) on every call sees it gone.
  assert.equal(probe(child.pid!, Date.now()), false)
})
