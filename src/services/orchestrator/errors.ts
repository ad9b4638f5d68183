import { commonErrors } from '../../core/errors/common.js'
import { defineErrors } from '../../core/errors/define.js'

export const CONTROL_MUTATIONS_ENV = 'QUARTET_CONTROL_MUTATIONS'

const CONTROL_MUTATION_REFUSAL =
  'HTTP orchestration-control mutations are disabled. Control lives in the terminal: ' +
  'use `quartet plan`, `quartet run` (`--resume`), `quartet kill` or `quartet status`, ' +
  'and edit .quartet/config.json or DIRECTIVES.md directly. ' +
  `Emergency re-enable: set \`api.control_mutations: true\` in .quartet/config.json or ${CONTROL_MUTATIONS_ENV}=1.`

/** Errors of the orchestrator (rendered as `{error: message}`, with the code in the log). */
export const orchestratorErrors = {
  ORCH_TASK_NOT_FOUND: { status: 404, message: 'task not found' },
  ORCH_JOB_NOT_FOUND: { status: 404, message: 'Job not found' },
  ORCH_SPRINT_NOT_FOUND: { status: 404, message: 'No sprint found' },
  ORCH_CONFIG_NOT_FOUND: { status: 404, message: 'Config not found' },
  ORCH_CONFIG_INVALID: { status: 422, message: 'The configuration is invalid.' },
  ORCH_PLAN_INVALID: { status: 422, message: 'The plan is invalid.' },
  ORCH_NOTHING_PLANNED: { status: 409, message: 'Nothing is planned: plan a sprint first (POST /api/plan or quartet plan).' },
  ORCH_NOTHING_TO_RESUME: { status: 409, message: 'Nothing to resume: no sprint has orphaned or killed tasks.' },
  ORCH_SPRINT_ACTIVE: { status: 409, message: 'Cannot cleanup while sprint is active' },
  ORCH_DIRECTIVES_MISSING: { status: 400, message: 'Missing content field' },
  ORCH_PROVIDER_UNAVAILABLE: { status: 503, message: 'The configured provider is not reachable.' },
  ORCH_MEMORY_HOLD: { status: 409, message: 'The memory read is held' },
  ORCH_MEMORY_UNAVAILABLE: { status: 503, message: 'QUERY_FAILED' },
  ORCH_EXECUTION_NOT_FOUND: { status: 404, message: 'execution not found' },
  ORCH_MISSION_NOT_FOUND: { status: 404, message: 'not found' },
  ORCH_MISSION_CURSOR_INVALID: { status: 400, message: 'invalid cursor' },
  ORCH_RUN_ACTIVE: { status: 409, message: 'A run is active: one run per project at a time.' },
  ORCH_RPC_INVALID: { status: 400, message: 'Invalid RPC request.' },
  ORCH_APPROVAL_INVALID_ID: { status: 400, message: 'Invalid approval id' },
  ORCH_APPROVAL_NOT_FOUND: { status: 404, message: 'Approval request not found' },
  ORCH_APPROVAL_DECIDED: { status: 409, message: 'The approval request is already decided.' },
  ORCH_APPROVAL_EXPIRED: { status: 409, message: 'The approval request has expired.' },
  ORCH_APPROVAL_API_DECIDE_OFF: {
    status: 403,
    message:
      'Approval decisions over HTTP are disabled: decide with `quartet approvals decide <id> allow|deny`, ' +
      'or set approval.api_decide: true in .quartet/config.json.'
  },
  ORCH_CONTROL_MUTATIONS_OFF: { status: 403, message: CONTROL_MUTATION_REFUSAL },
  ORCH_APPROVAL_SELF_DECISION: { status: 403, message: 'A requester cannot decide its own approval request.' },
  ORCH_IDEMPOTENCY_KEY_REQUIRED: { status: 400, message: 'The Idempotency-Key header is required.' },
  ORCH_IDEMPOTENCY_CONFLICT: { status: 409, message: 'This Idempotency-Key was used with a different request body.' }
} as const

export const orchestratorError = defineErrors({ ...commonErrors, ...orchestratorErrors })
