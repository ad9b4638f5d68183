/**
 * Cross-verify after each task (`cross_verify.after_task`): once the job has ended a task DONE, a
 * verifier of another provider checks its diff, and the verdict is recorded on the task and
 * appended as `task_xverified`. The verdict never changes the task's status: DONE is final in the
 * lifecycle, and the seed's rule is about closing the *claim* — only CONFIRMED with its whole chain
 * closes it; REFUTED, UNCLEAR, HOLD and SKIPPED leave it open, flagged where the task is shown.
 */
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { TaskXverify } from '../../state/xverify.domain.js'
import type { XverifyResult, XverifyService } from './xverify.service.js'

export interface AfterTaskXverifyDeps {
  projectId: number
  xverify: Pick<XverifyService, 'run'>
  repositories: Pick<OrchestratorRepositories, 'tasks' | 'events'>
  clock: () => Date
}

export function verdictOf(result: XverifyResult, at: string): TaskXverify {
  if (result.outcome === 'skipped') {
    return {
      verdict: 'SKIPPED',
      closed: false,
      reason: result.reason,
      author: result.author,
      verifier: null,
      receiptRef: null,
      settlement: null,
      at
    }
  }
  return {
    verdict: result.outcome === 'hold' ? 'HOLD' : (result.outcome.toUpperCase() as TaskXverify['verdict']),
    closed: result.closed,
    reason: result.reason,
    author: result.author,
    verifier: result.verifier,
    receiptRef: result.receiptRef,
    settlement: result.settlementState,
    at
  }
}

/** The job's `onTaskDone` step: verify, record on the task, announce. */
export function createAfterTaskXverify(deps: AfterTaskXverifyDeps): (taskId: string) => Promise<TaskXverify | null> {
  return async (taskId) => {
    const task = await deps.repositories.tasks.get(taskId)
    if (!task) return null
    let verdict: TaskXverify
    try {
      verdict = verdictOf(await deps.xverify.run({ taskId }), deps.clock().toISOString())
    } catch (error) {
      // A configuration the verifier cannot run under (an unknown author agent …) is a HOLD, said as such.
      verdict = {
        verdict: 'HOLD',
        closed: false,
        reason: `cross-verify could not run: ${(error as Error).message}`,
        author: null,
        verifier: null,
        receiptRef: null,
        settlement: null,
        at: deps.clock().toISOString()
      }
    }
    await deps.repositories.tasks.setXverify(taskId, verdict)
    await deps.repositories.events.append(deps.projectId, {
      type: 'task_xverified',
      sprintId: task.sprintId,
      taskId,
      data: {
        verdict: verdict.verdict,
        closed: verdict.closed,
        reason: verdict.reason,
        verifier: verdict.verifier?.agent ?? null,
        receiptRef: verdict.receiptRef
      }
    })
    return verdict
  }
}
