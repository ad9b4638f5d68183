import type { Generated, Kysely, Selectable } from 'kysely'

export interface ProjectsTable {
  id: Generated<number>
  root: string
  created_at: string
}

export interface SprintsTable {
  id: string
  project_id: number
  number: number
  title: string
  status: string
  planner_mode: string
  directives_digest: string | null
  /** Added by orchestrator_0010_sprint_context. */
  context: string | null
  warnings: string
  tokens_used: Generated<number>
  cost_micro_usd: Generated<number>
  stop_reason: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
}

export interface TasksTable {
  id: string
  sprint_id: string
  key: string
  title: string
  description: string
  status: string
  priority: string
  agent: string | null
  dependencies: string
  files: string
  go_criteria: string
  no_go_criteria: string
  check_command: string | null
  expect_change: number
  position: number
  attempts: Generated<number>
  branch: string | null
  worktree: string | null
  commit_sha: string | null
  reason: string | null
  files_changed: Generated<string>
  created_at: string
  updated_at: string
  started_at: string | null
  finished_at: string | null
  /** Risk class from `Risk:` in DIRECTIVES.md; null when none was given. */
  risk: string | null
  /** The engine's cross-verify verdict after the task ended DONE (JSON, state/xverify.domain.ts); null: none ran. */
  xverify: string | null
}

export interface JobsTable {
  id: Generated<number>
  project_id: number
  sprint_id: string
  status: string
  active: number
  pid: number | null
  hostname: string | null
  resume: Generated<number>
  error: string | null
  result: string | null
  created_at: string
  started_at: string | null
  heartbeat_at: string | null
  finished_at: string | null
}

export interface AttemptsTable {
  id: Generated<number>
  task_id: string
  job_id: number
  number: number
  agent: string
  status: string
  pids: Generated<string>
  exit_code: number | null
  reason: string | null
  transient: Generated<number>
  input_tokens: Generated<number>
  output_tokens: Generated<number>
  cost_micro_usd: number | null
  model: string | null
  agent_ms: number | null
  started_at: string
  finished_at: string | null
}

export interface HeartbeatsTable {
  task_id: string
  worker_id: string
  status: string
  current_action: string
  files_changed_count: number
  sequence: number
  updated_at: string
}

export interface EventsTable {
  id: Generated<number>
  project_id: number
  seq: number
  type: string
  sprint_id: string | null
  task_id: string | null
  data: string
  created_at: string
}

export interface CoverageTable {
  sprint_id: string
  project_id: number
  coverage_centi: number | null
  command: string
  exit_code: number | null
  output_tail: string
  recorded_at: string
}

export interface MemoryEntriesTable {
  id: Generated<number>
  project_id: number
  tenant_id: string
  type: string
  source: string
  title: string
  content: string
  summary: string | null
  tags: Generated<string>
  status: string
  priority: string
  sprint_id: string | null
  sprint_num: number | null
  lang: string
  metadata: Generated<string>
  source_key: string | null
  revision: number
  created_at: string
  updated_at: string
  deleted_at: string | null
}

export interface ExecutionsTable {
  id: string
  project_id: number
  tenant_id: string
  actor: string
  origin: string
  kind: string
  title: string
  request: string
  effect_class: string
  status: string
  reason: string | null
  approval_id: string | null
  sprint_id: string | null
  job_id: number | null
  created_at: string
  updated_at: string
}

export interface MissionsTable {
  id: string
  project_id: number
  tenant_id: string
  title: string
  source: string
  kind: string
  execution_id: string | null
  job_id: number | null
  sprint_id: string | null
  created_at: string
}

export interface ApprovalsTable {
  id: string
  project_id: number
  tenant_id: string
  /** What the request is about when that is not a task: the execution of a parked process submission. */
  scope_id: string | null
  task_id: string | null
  requester_kind: string
  requester_id: string
  summary: string
  scope: string
  risk: string
  policy: string
  default_action: string
  tool_name: string | null
  masked_args: string
  raw_args_ref: string | null
  created_at: string
  expires_at: string
  decision: string | null
  decided_by: string | null
  channel: string | null
  decided_at: string | null
  reason: string | null
  closure_reason: string | null
  idempotency_key: string | null
  decision_digest: string | null
}

export interface OrchestratorTables {
  orch_projects: ProjectsTable
  orch_sprints: SprintsTable
  orch_tasks: TasksTable
  orch_jobs: JobsTable
  orch_attempts: AttemptsTable
  orch_heartbeats: HeartbeatsTable
  orch_events: EventsTable
  orch_coverage: CoverageTable
  orch_memory_entries: MemoryEntriesTable
  orch_executions: ExecutionsTable
  orch_missions: MissionsTable
  orch_approvals: ApprovalsTable
}

export type OrchestratorDb = Kysely<OrchestratorTables>
export type SprintRow = Selectable<SprintsTable>
export type TaskRow = Selectable<TasksTable>
export type JobRow = Selectable<JobsTable>
export type AttemptRow = Selectable<AttemptsTable>
export type HeartbeatRow = Selectable<HeartbeatsTable>
export type EventRow = Selectable<EventsTable>
export type CoverageRow = Selectable<CoverageTable>
export type MemoryEntryRow = Selectable<MemoryEntriesTable>
export type ExecutionRow = Selectable<ExecutionsTable>
export type MissionRow = Selectable<MissionsTable>
export type ApprovalRow = Selectable<ApprovalsTable>
