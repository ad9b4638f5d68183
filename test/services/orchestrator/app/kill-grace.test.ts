import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isProcessAlive } from '../../../../src/services/orchestrator/engine/process-group.js'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

/** An agent whose whole process group ignores SIGTERM: only the SIGKILL after the grace period ends it. */
const STUBBORN = { kind: 'command', argv: ['/bin/sh', '-c', "trap '' TERM; echo started; sleep 60"] }
const GRACE_SECONDS = 1

/** A zombie is dead: where the init process does not reap, signal 0 would still find it. */
const alive = isProcessAlive

test('orphan reconciliation by the server waits engine.kill_grace_seconds (not a fixed 5 s) before SIGKILL', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { stubborn: STUBBORN }, default_agent: 'stubborn', engine: { kill_grace_seconds: GRACE_SECONDS } },
    directives: '# Stubborn\n\n## Task 1: wait\nWait.\n'
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const agent = await eventually(
    async () => {
      const attempts = (await orch.repositories.attempts.listForJob(started.json.jobId)).filter((a) => a.processes.length > 0)
      return attempts[0]?.processes[0]?.pid
    },
    30_000,
    'the agent to start'
  )
  // The job dies without stopping its agent; the next read reconciles it and kills the agent's group.
  process.kill(started.json.pid, 'SIGKILL')
  await eventually(async () => !alive(started.json.pid), 5_000, 'the job to die')
  const before = Date.now()
  const status = await orch.call('GET', '/api/status')
  const took = Date.now() - before
  assert.equal(status.json.lifecycle, 'ORPHANED', status.body)
  assert.equal(alive(agent), false, 'the agent group is gone once the reconciling read answers')
  assert.ok(took >= GRACE_SECONDS * 1000 - 100, `the read waited the grace period for SIGTERM first (${took} ms)`)
  assert.ok(took < 4_000, `the grace period came from the config (1 s), not a fixed 5 s (${took} ms)`)
})
