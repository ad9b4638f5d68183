/**
 * The orchestrator's state as the rest of the service sees it: typed statuses, arrays, booleans
 * and parsed JSON. Rows (state/db.ts) never leave state/; the mappers below are the only place
 * that knows how a value is stored.
 */
import type { CheckCommand, JobStatus, PlannedTask, Priority, RecordedProcess, Risk, SprintStatus, TaskStatus } from '../engine/types.js'
import type { AttemptRow, CoverageRow, ExecutionRow, HeartbeatRow, JobRow, MemoryEntryRow, MissionRow, SprintRow, TaskRow } from './db.js'
import { parseTaskXverify, type TaskXverify } from './xverify.domain.js'

export * from './approvals.domain.js'
export * from './xverify.domain.js'

export interface Sprint {
  id: string
  projectId: number
  number: number
  title: string
  status: SprintStatus
  plannerMode: 'structured' | 'ai'
  directivesDigest: string | null
  /** DIRECTIVES.md text before the first task: every task's agent gets it. */
  context: string | null
  warnings: string[]
  tokensUsed: number
  costMicroUsd: number
  stopReason: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
}

export interface Task {
  id: string
  sprintId: string
  key: string
  title: string
  description: string
  status: TaskStatus
  priority: Priority
  /** The agent the plan named (null: the configured default). */
  agent: string | null
  /** Plan keys of the tasks it depends on. */
  dependencies: string[]
  files: string[]
  goCriteria: string[]
  noGoCriteria: string[]
  check: CheckCommand | null
  expectChange: boolean
  risk: Risk | null
  position: number
  attempts: number
  branch: string | null
  worktree: string | null
  commitSha: string | null
  reason: string | null
  filesChanged: string[]
  createdAt: string
  updatedAt: string
  startedAt: string | null
  finishedAt: string | null
  /** The cross-verify verdict the engine recorded after the task ended DONE; null: none ran. */
  xverify: TaskXverify | null
}

export interface Job {
  id: number
  projectId: number
  sprintId: string
  status: JobStatus
  /** Queued or running: at most one per project. */
  active: boolean
  pid: number | null
  hostname: string | null
  resume: boolean
  error: string | null
  result: unknown
  createdAt: string
  startedAt: string | null
  heartbeatAt: string | null
  finishedAt: string | null
}

export type AttemptStatus = 'running' | 'DONE' | 'NO_GO' | 'CANCELLED' | 'ORPHANED'

export interface Attempt {
  id: number
  taskId: string
  jobId: number
  number: number
  agent: string
  status: AttemptStatus
  /** The process groups it started, each with its start time (null in old records). */
  processes: RecordedProcess[]
  exitCode: number | null
  reason: string | null
  transient: boolean
  inputTokens: number
  outputTokens: number
  /** null: the agent reported no cost. */
  costMicroUsd: number | null
  model: string | null
  agentMs: number | null
  startedAt: string
  finishedAt: string | null
}

export interface Heartbeat {
  taskId: string
  workerId: string
  status: string
  currentAction: string
  filesChangedCount: number
  sequence: number
  updatedAt: string
}

export interface Coverage {
  sprintId: string
  projectId: number
  /** Percent, or null when the command printed no recognisable percentage. */
  coverage: number | null
  command: CheckCommand
  exitCode: number | null
  outputTail: string
  recordedAt: string
}

export type ExecutionStatus = 'pending' | 'running' | 'parked' | 'done' | 'failed'

export type ExecutionKind = 'task' | 'sprint' | 'process' | 'capability'

/** What a capability submission asks for: `erp.read`, optionally through a named connector. */
export interface CapabilityTarget {
  capability: string
  connector?: string
}

/** A process submission as stored: the client's fields after validation, with server-stamped identity. */
export interface SubmissionRequest {
  description: string
  kind: ExecutionKind
  capabilityTarget?: CapabilityTarget
  steps?: string[]
  scopeDir?: string
  actor: string
  tenant: string
  origin: 'api' | 'rpc' | 'autonomous'
}

export interface Execution {
  id: string
  projectId: number
  tenantId: string
  actor: string
  origin: string
  kind: string
  title: string
  request: SubmissionRequest
  effectClass: string
  status: ExecutionStatus
  reason: string | null
  approvalId: string | null
  sprintId: string | null
  jobId: number | null
  createdAt: string
  updatedAt: string
}

export interface Mission {
  id: string
  projectId: number
  tenantId: string
  title: string
  source: 'submission' | 'run'
  kind: string
  executionId: string | null
  jobId: number | null
  sprintId: string | null
  createdAt: string
}

// PostgreSQL answers bigint columns (sums, counts, some ids) as strings: every number is read through Number().
const num = (value: unknown): number => Number(value)
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))

export function toSprint(row: SprintRow): Sprint {
  return {
    id: row.id,
    projectId: num(row.project_id),
    number: num(row.number),
    title: row.title,
    status: row.status as SprintStatus,
    plannerMode: row.planner_mode as Sprint['plannerMode'],
    directivesDigest: row.directives_digest,
    context: row.context ?? null,
    warnings: JSON.parse(row.warnings) as string[],
    tokensUsed: num(row.tokens_used),
    costMicroUsd: num(row.cost_micro_usd),
    stopReason: row.stop_reason,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at
  }
}

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    sprintId: row.sprint_id,
    key: row.key,
    title: row.title,
    description: row.description,
    status: row.status as TaskStatus,
    priority: row.priority as Priority,
    agent: row.agent,
    dependencies: JSON.parse(row.dependencies) as string[],
    files: JSON.parse(row.files) as string[],
    goCriteria: JSON.parse(row.go_criteria) as string[],
    noGoCriteria: JSON.parse(row.no_go_criteria) as string[],
    check: row.check_command === null ? null : (JSON.parse(row.check_command) as CheckCommand),
    expectChange: row.expect_change === 1,
    risk: row.risk as Risk | null,
    position: num(row.position),
    attempts: num(row.attempts),
    branch: row.branch,
    worktree: row.worktree,
    commitSha: row.commit_sha,
    reason: row.reason,
    filesChanged: JSON.parse(row.files_changed) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    xverify: parseTaskXverify(row.xverify)
  }
}

/** The planner's view of a stored task (what the executor receives). */
export function plannedTaskOf(task: Task): PlannedTask {
  return {
    key: task.key,
    title: task.title,
    description: task.description,
    dependencies: task.dependencies,
    files: task.files,
    goCriteria: task.goCriteria,
    noGoCriteria: task.noGoCriteria,
    ...(task.agent ? { agent: task.agent } : {}),
    priority: task.priority,
    ...(task.check !== null ? { check: task.check } : {}),
    expectChange: task.expectChange,
    ...(task.risk ? { risk: task.risk } : {})
  }
}

export function toJob(row: JobRow): Job {
  return {
    id: num(row.id),
    projectId: num(row.project_id),
    sprintId: row.sprint_id,
    status: row.status as JobStatus,
    active: num(row.active) === 1,
    pid: numOrNull(row.pid),
    hostname: row.hostname,
    resume: num(row.resume) === 1,
    error: row.error,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    createdAt: row.created_at,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    finishedAt: row.finished_at
  }
}

/** The recorded process groups: `{pid, startTicks}` objects, or plain pids as older rows hold them. */
export function processesOf(pids: string): RecordedProcess[] {
  return (JSON.parse(pids) as Array<number | RecordedProcess>).map((entry) =>
    typeof entry === 'number' ? { pid: entry, startTicks: null } : entry
  )
}

export function toAttempt(row: AttemptRow): Attempt {
  return {
    id: num(row.id),
    taskId: row.task_id,
    jobId: num(row.job_id),
    number: num(row.number),
    agent: row.agent,
    status: row.status as AttemptStatus,
    processes: processesOf(row.pids),
    exitCode: numOrNull(row.exit_code),
    reason: row.reason,
    transient: num(row.transient) === 1,
    inputTokens: num(row.input_tokens),
    outputTokens: num(row.output_tokens),
    costMicroUsd: numOrNull(row.cost_micro_usd),
    model: row.model,
    agentMs: numOrNull(row.agent_ms),
    startedAt: row.started_at,
    finishedAt: row.finished_at
  }
}

export function toHeartbeat(row: HeartbeatRow): Heartbeat {
  return {
    taskId: row.task_id,
    workerId: row.worker_id,
    status: row.status,
    currentAction: row.current_action,
    filesChangedCount: num(row.files_changed_count),
    sequence: num(row.sequence),
    updatedAt: row.updated_at
  }
}

export function toCoverage(row: CoverageRow): Coverage {
  return {
    sprintId: row.sprint_id,
    projectId: num(row.project_id),
    coverage: row.coverage_centi === null ? null : num(row.coverage_centi) / 100,
    command: JSON.parse(row.command) as CheckCommand,
    exitCode: numOrNull(row.exit_code),
    outputTail: row.output_tail,
    recordedAt: row.recorded_at
  }
}

export function toExecution(row: ExecutionRow): Execution {
  return {
    id: row.id,
    projectId: num(row.project_id),
    tenantId: row.tenant_id,
    actor: row.actor,
    origin: row.origin,
    kind: row.kind,
    title: row.title,
    request: submissionRequestOf(row.request),
    effectClass: row.effect_class,
    status: row.status as ExecutionStatus,
    reason: row.reason,
    approvalId: row.approval_id,
    sprintId: row.sprint_id,
    jobId: numOrNull(row.job_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}

export function toMission(row: MissionRow): Mission {
  return {
    id: row.id,
    projectId: num(row.project_id),
    tenantId: row.tenant_id,
    title: row.title,
    source: row.source as Mission['source'],
    kind: row.kind,
    executionId: row.execution_id,
    jobId: numOrNull(row.job_id),
    sprintId: row.sprint_id,
    createdAt: row.created_at
  }
}

/**
 * A memory entry is served in the memory read contract's own record shape (snake_case, tags as
 * words, metadata as JSON text), so its stored form is its domain form.
 */
export type MemoryEntry = MemoryEntryRow

/** An entry's metadata as an object ({} when it is not one). */
export function metadataOf(entry: Pick<MemoryEntry, 'metadata'>): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(entry.metadata)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Rows written before targets were objects hold the capability as a plain string. */
function submissionRequestOf(json: string): SubmissionRequest {
  const request = JSON.parse(json) as Omit<SubmissionRequest, 'capabilityTarget'> & { capabilityTarget?: CapabilityTarget | string }
  const target = request.capabilityTarget
  return typeof target === 'string' ? { ...request, capabilityTarget: { capability: target } } : (request as SubmissionRequest)
}
