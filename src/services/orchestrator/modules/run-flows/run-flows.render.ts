import type { RunFlow } from '../../state/run-flows.repository.js'

/** A flow as the wire's RunFlowContext. */
export function renderFlow(flow: RunFlow) {
  return {
    flowId: flow.flowId,
    state: flow.state,
    revision: flow.revision,
    planDigest: flow.planDigest,
    proposal: flow.proposal,
    preview: flow.preview,
    approvedSnapshot: flow.approvedSnapshot,
    handle: flow.jobId === null ? null : { flowId: flow.flowId, jobId: flow.jobId, logRef: `/api/job/${flow.jobId}` },
    attemptId: flow.attemptId,
    missionId: flow.missionId,
    sprintId: flow.sprintId,
    cancelReason: flow.cancelReason,
    failureReason: flow.failureReason,
    createdAt: flow.createdAt,
    updatedAt: flow.updatedAt
  }
}
