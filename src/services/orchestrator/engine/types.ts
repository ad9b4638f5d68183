/**
 * The contract between the orchestrator's parts: the planner produces PlannedTasks, the
 * scheduler (state + job) stores them and hands one TaskRunInput at a time to the executor,
 * which answers a TaskRunOutcome. Each part is built and tested on its own against this file.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process'

export const TASK_STATUSES = [
  'PENDING', // planned, waiting for its dependencies or a free worker
  'CLAIMED', // picked by a job, worker starting
  'EXECUTING', // agent running
  'TESTING', // agent done, check command running
  'DONE', // agent exited 0, produced a change (or none expected), check passed
  'NO_GO', // failed; `reason` says why
  'ORPHANED', // its job or agent process died while it was CLAIMED/EXECUTING/TESTING
  'CANCELLED', // killed by a user, or not run because the budget ran out / a dependency failed
  'BLOCKED', // a dependency ended NO_GO/CANCELLED
  'AWAITING_APPROVAL' // its risk class needs a human's approval before it runs (held by the job)
] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]
export const ACTIVE_TASK_STATUSES: readonly TaskStatus[] = ['AWAITING_APPROVAL', 'CLAIMED', 'EXECUTING', 'TESTING']

export const PRIORITIES = ['CRITICAL', 'HIGH', 'NORMAL', 'LOW'] as const
export type Priority = (typeof PRIORITIES)[number]

export const RISKS = ['none', 'low', 'medium', 'high', 'critical'] as const
export type Risk = (typeof RISKS)[number]

export const SPRINT_STATUSES = ['PLANNED', 'RUNNING', 'COMPLETE', 'ABORTED', 'ORPHANED'] as const
export type SprintStatus = (typeof SPRINT_STATUSES)[number]

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'killed', 'orphaned'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/** One task as the planner produces it (keys are the "N" of `## Task N:`; ids are assigned when stored). */
export interface PlannedTask {
  key: string
  title: string
  description: string
  dependencies: string[]
  files: string[]
  goCriteria: string[]
  noGoCriteria: string[]
  agent?: string
  priority: Priority
  /** Per-task check command; falls back to the project's. */
  check?: CheckCommand
  /** false when the task says no change is expected (analysis, review …). */
  expectChange: boolean
  /** `Risk:` line; the config's approval.require_for_risk decides whether it waits for a human. */
  risk?: Risk
}

export interface Plan {
  mode: 'structured' | 'ai'
  tasks: PlannedTask[]
  warnings: string[]
}

/** A command as configured: an argv array is run as is; a string is run by /bin/sh -c (user-written, never templated). */
export type CheckCommand = string | string[]

export interface Usage {
  inputTokens: number
  outputTokens: number
  /** null when the agent/provider reported no cost. */
  costUsd: number | null
  model?: string
}

/** What the scheduler hands the executor for one attempt of one task. */
export interface TaskRunInput {
  projectRoot: string
  sprintId: string
  taskId: string
  task: PlannedTask
  attempt: number
  /** The sprint's context (DIRECTIVES.md text before the first task), given to every task's agent. */
  sprintContext?: string
  /** How the previous attempt of this task ended, for a retry's prompt. */
  previous?: { reason: string; logTail: string[] }
  /**
   * Branches of the task's DONE dependencies that hold commits, in dependency order: a new
   * worktree starts from the first with the others merged in, so the task builds on their work.
   * Empty or absent: it starts from the project's HEAD. Ignored when the worktree already exists (resume).
   */
  baseBranches?: string[]
  /** Worker log file for this task (appended, capped at logCapBytes with a marker line). */
  logFile: string
  logCapBytes: number
  timeoutMs: number
  /** Aborted on kill / budget stop: the executor kills the agent's process group and answers CANCELLED. */
  signal: AbortSignal
  onHeartbeat(beat: { status: 'EXECUTING' | 'TESTING'; currentAction: string; filesChangedCount?: number }): void
  /**
   * Called with the pid (= process-group id) of every agent/check process as it starts, so it can
   * be killed or reaped after a crash. Called synchronously right after the spawn, while the
   * process (or its unreaped zombie) is still there to read its start time from.
   */
  onProcess(pid: number): void
  /** Called once the attempt's worktree exists (before the agent starts), with its branch and path. */
  onWorkspace?(workspace: { branch: string; worktree: string }): Promise<void>
  /**
   * Usage as it is reported. `final`: reported once the agent has exited — a budget it crosses
   * then stops what comes after this task, not the task's own commit and check.
   */
  onUsage(usage: Usage, options?: { final?: boolean }): void
}

/**
 * An agent/check process group as an attempt records it; startTicks (see engine/process.ts) tells a reused pid apart,
 * null in old records.
 */
export interface RecordedProcess {
  pid: number
  startTicks: number | null
}

export interface TaskRunOutcome {
  status: 'DONE' | 'NO_GO' | 'CANCELLED'
  reason: string
  /** true when the failure is worth retrying (provider 429/5xx, connection error). */
  transient: boolean
  exitCode: number | null
  filesChanged: string[]
  commitSha: string | null
  branch: string | null
  worktree: string | null
  usage: Usage
  logTail: string[]
  agentMs: number
}

/** Everything impure the engine touches, passed in (tests use real processes, real git, a real local HTTP provider). */
export interface EnginePlatform {
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess
  fetch: typeof fetch
  clock: () => Date
}

export type ExecuteTask = (input: TaskRunInput) => Promise<TaskRunOutcome>
