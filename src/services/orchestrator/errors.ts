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
  ORCH_SPRINT_RESUMABLE: {
    status: 409,
    message: 'The last sprint has unfinished tasks: resume it (quartet run --resume) or plan with --force to abandon them.'
  },
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
  ORCH_APPROVAL_SUPERSEDED: { status: 409, message: 'The approval request was closed without a decision (superseded).' },
  ORCH_APPROVAL_API_DECIDE_OFF: {
    status: 403,
    message:
      'Approval decisions over HTTP are disabled: decide with `quartet approvals decide <id> allow|deny`, ' +
      'or set approval.api_decide: true in .quartet/config.json.'
  },
  ORCH_APPROVAL_STEP_UP_REQUIRED: {
    status: 401,
    message:
      'Approval decisions over HTTP need a fresh OIDC sign-in (approval.authority): sign in again at the identity provider ' +
      'and decide with the new token, or decide at the terminal with `quartet approvals decide`.'
  },
  ORCH_CONTROL_MUTATIONS_OFF: { status: 403, message: CONTROL_MUTATION_REFUSAL },
  ORCH_APPROVAL_SELF_DECISION: { status: 403, message: 'A requester cannot decide its own approval request.' },
  ORCH_IDEMPOTENCY_KEY_REQUIRED: { status: 400, message: 'The Idempotency-Key header is required.' },
  ORCH_IDEMPOTENCY_CONFLICT: { status: 409, message: 'This Idempotency-Key was used with a different request body.' },
  ORCH_RUN_FLOW_DISABLED: {
    status: 404,
    message: 'run-flow API is disabled: set terminal.run_flow_v2: true in .quartet/config.json to enable /api/run-flow/*'
  },
  ORCH_FLOW_INVALID_ID: { status: 400, message: 'Invalid flow id' },
  ORCH_FLOW_INVALID_CURSOR: { status: 400, message: 'Invalid cursor: pass the nextCursor of the previous page' },
  ORCH_FLOW_NOT_FOUND: { status: 404, message: 'Flow not found' },
  ORCH_FLOW_STATE_CONFLICT: { status: 409, message: 'The flow is not in a state that allows this.' },
  ORCH_FLOW_PLANNER_FAILED: { status: 502, message: 'planning failed' },
  ORCH_MERGE_INVALID: { status: 400, message: 'The merge cannot be queued.' },
  ORCH_MERGE_ACTIVE: { status: 409, message: 'A merge is running: one merge queue per project at a time.' },
  ORCH_MERGE_NOT_FOUND: { status: 404, message: 'Merge not found' },
  // The dashboard's OIDC exchange answers {error: <message>, reason?}: the reference's codes.
  ORCH_OIDC_DISABLED: { status: 404, message: 'oidc_disabled' },
  ORCH_OIDC_INVALID_REQUEST: { status: 400, message: 'invalid_request' },
  ORCH_OIDC_DISCOVERY_FAILED: { status: 502, message: 'discovery_failed' },
  ORCH_OIDC_TOKEN_EXCHANGE_FAILED: { status: 502, message: 'token_exchange_failed' },
  ORCH_OIDC_ID_TOKEN_MISSING: { status: 502, message: 'id_token_missing' },
  ORCH_OIDC_ID_TOKEN_INVALID: { status: 401, message: 'id_token_invalid' },
  ORCH_TERMINAL_DISABLED: { status: 404, message: 'terminal disabled' },
  ORCH_TERMINAL_SHELL_DISABLED: { status: 403, message: 'shell session kind disabled by config' },
  ORCH_TERMINAL_TOOL_NOT_ALLOWED: { status: 400, message: 'ai session tool not allowed' },
  ORCH_TERMINAL_LIMIT: { status: 409, message: 'max sessions reached' },
  ORCH_TERMINAL_SPAWN_FAILED: { status: 409, message: 'the session could not be started' },
  ORCH_TERMINAL_TENANT_REQUIRED: { status: 403, message: 'strict tenant mode: the caller has no verified tenant' }
} as const

export const orchestratorError = defineErrors({ ...commonErrors, ...orchestratorErrors })
