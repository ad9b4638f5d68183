import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventually } from '../../../helpers/orchestrator.js'
import { approve, flowServer, propose } from './helpers.js'

// A read of a starting flow adopts its job as soon as the job exists (reconcile). The start's own
// move to DETACHED_RUNNING then finds the flow already there: that is the run it started, not a
// cancel, and its job must not be killed (it was, as "killed by user", when the dashboard polled).
test('reads racing a start adopt its job; the start does not mistake that for a cancel and kill the run', async () => {
  const orch = await flowServer()
  for (let round = 0; round < 4; round++) {
    const { flowId } = await propose(orch, `Write note ${round} into notes.txt`)
    await approve(orch, flowId)
    let starting = true
    const reads: Promise<unknown>[] = []
    const poll = async () => {
      // A macrotask between reads: the start's child process and timers get their turn.
      while (starting) {
        await orch.call('GET', `/api/run-flow/${flowId}`)
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    for (let i = 0; i < 4; i++) reads.push(poll())
    const started = await orch.call('POST', `/api/run-flow/${flowId}/start`)
    starting = false
    await Promise.all(reads)
    assert.equal(started.status, 202, started.body)
    assert.equal(started.json.started, true, started.body)
    const flow = await eventually(
      async () => {
        const now = (await orch.call('GET', `/api/run-flow/${flowId}`)).json
        return now.state === 'DETACHED_RUNNING' || now.state === 'STARTING' ? null : now
      },
      60_000,
      `flow ${round} to end`
    )
    assert.equal(flow.state, 'COMPLETED', JSON.stringify({ round, failureReason: flow.failureReason }))
    // Whichever of the two recorded the job, the flow names the run's mission.
    assert.match(String(flow.missionId), /^mis/, JSON.stringify(flow))
    const startEvents = await orch.database.db
      .selectFrom('orch_run_flow_events' as never)
      .select('data' as never)
      .where('flow_id' as never, '=', flowId as never)
      .where('type' as never, '=', 'RUN_STARTED' as never)
      .execute()
    assert.equal(startEvents.length, 1, 'one RUN_STARTED, whichever recorded it')
    assert.equal(JSON.parse((startEvents[0] as { data: string }).data).missionId, flow.missionId)
    const job = await orch.call('GET', `/api/job/${flow.handle.jobId}`)
    assert.equal(job.json.status, 'completed', job.body)
  }
})
