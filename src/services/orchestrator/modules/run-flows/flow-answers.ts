import { orchestratorError } from '../../errors.js'
import type { RunFlow } from '../../state/run-flows.repository.js'

/** The flow is not in a state that allows the request: 409 with the state it is in. */
export function conflict(flow: RunFlow, why: string) {
  return orchestratorError('ORCH_FLOW_STATE_CONFLICT', `${why} (flow ${flow.flowId} is ${flow.state})`, {
    details: [{ pointer: '/state', message: flow.state }]
  })
}

/** A start of this flow got in already (it has an attempt, and was not cancelled): another start is a duplicate. */
export function startedAlready(flow: RunFlow): boolean {
  return flow.attemptId !== null && flow.state !== 'CANCELLED'
}

/** A start of a flow whose run was already started (by this request's twin or an earlier one): accepted, nothing new. */
export function duplicate(flow: RunFlow) {
  return { accepted: true, started: true, duplicate: true, attemptId: flow.attemptId, context: flow }
}
