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
  // The job dies without stopping its agent; the next read (or the server's job watcher, which
  // the read then waits for) reconciles it and kills the agent's group after the grace period.
  const killedAt = Date.now()
  process.kill(started.json.pid, 'SIGKILL')
  await eventually(async () => !alive(started.json.pid), 5_000, 'the job to die')
  const read = orch.call('GET', '/api/status')
  // No reconciliation can start before the job died, so the agent outlives its death by the grace.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + GRACE_SECONDS * 1000 - 150 - Date.now())))
  assert.equal(alive(agent), true, 'SIGTERM is ignored: the agent lives through the grace period')
  const status = await read
  const took = Date.now() - killedAt
  assert.equal(status.json.lifecycle, 'ORPHANED', status.body)
  assert.equal(alive(agent), false, 'the agent group is gone once the reconciling read answers')
  assert.ok(took < 4_000, `the grace period came from the config (1 s), not a fixed 5 s (${took} ms)`)
})
