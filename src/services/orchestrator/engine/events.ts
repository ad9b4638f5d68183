/**
 * Every event the orchestrator appends to a project's event log, by name, with its payload type.
 * Emitters, the SSE stream, the CLI's renderers and the event list in docs/orchestrator.md are
 * all derived from this one map (test/services/orchestrator/events-doc.test.ts keeps the docs equal).
 */
import type { TaskXverifyVerdict } from '../state/xverify.domain.js'
import type { SprintStatus, TaskStatus } from './types.js'

export type StatusCounts = Partial<Record<TaskStatus, number>>

export interface OrchestratorEvents {
  sprint_planned: { mode: 'structured' | 'ai'; tasks: number; warnings: string[] }
  job_started: { jobId: number; pid: number; resume: boolean }
  sprint_resumed: { jobId: number; tasks: string[] }
  sprint_started: { jobId: number; resume: boolean; tasks: number; maxWorkers: number }
  task_awaiting_approval: { approvalId: string; expiresAt: string; summary?: string }
  task_approved: { approvalId: string }
  task_approval_closed: { approvalId: string; outcome: InRunApprovalOutcome; reason: string; status: TaskStatus }
  task_claimed: { jobId: number }
  task_started: { attempt: number; agent: string; logFile: string }
  task_heartbeat: { status: 'EXECUTING' | 'TESTING'; currentAction: string; sequence: number }
  task_retry: { attempt: number; nextAttempt: number; delayMs: number; reason: string }
  task_done: TaskEnding
  task_no_go: TaskEnding
  task_blocked: TaskEnding
  task_cancelled: TaskEnding
  task_killed: { killedPids: number[] }
  budget_exceeded: { reason: string; tokensUsed: number; costMicroUsd: number; limitTokens: number | null; limitMicroUsd: number | null }
  sprint_finished: { jobId: number; status: Extract<SprintStatus, 'COMPLETE' | 'ABORTED'>; stopReason: string | null; counts: StatusCounts }
  job_killed: { jobId: number; pid: number | null; gracefully: boolean; killedPids: number[]; cancelledTasks: string[] }
  job_orphaned: { jobId: number; pid: number | null; reason: string; tasks: string[]; killedPids: number[] }
  cleanup: { removed: number; kept: number }
  coverage_recorded: { coverage: number | null; exitCode: number | null }
  merge_started: { mergeId: string; target: string; strategy: 'merge' | 'squash' | 'rebase'; tasks: string[] }
  merge_task: { mergeId: string; taskId: string; status: string; files: string[]; commitSha: string | null; reason: string | null }
  merge_finished: { mergeId: string; status: 'done' | 'failed'; merged: number; total: number }
  task_xverified: {
    verdict: TaskXverifyVerdict
    closed: boolean
    reason: string
    verifier: string | null
    receiptRef: string | null
  }
}

/** How a task ended: the reason, and what the last attempt left (absent when no attempt ran). */
export interface TaskEnding {
  reason: string
  attempt?: number
  exitCode?: number | null
  commitSha?: string | null
  filesChanged?: number
  /** The dependency that blocked it. */
  dependency?: string
  /** The approval request that decided it. */
  approvalId?: string
}

/** How a request raised by a task's agent while it ran was closed. */
export type InRunApprovalOutcome = 'approved' | 'denied' | 'expired' | 'withdrawn'

export type EventType = keyof OrchestratorEvents

/** An event as an emitter appends it: the type decides the payload. */
export type NewEvent = {
  [K in EventType]: { type: K; sprintId?: string | null; taskId?: string | null; data: OrchestratorEvents[K] }
}[EventType]

/** An event as stored and served (`/api/events` sends it as the frame's data). */
export type StoredEvent = {
  [K in EventType]: { seq: number; type: K; sprintId: string | null; taskId: string | null; data: OrchestratorEvents[K]; createdAt: string }
}[EventType]

interface EventDoc<T> {
  /** When it is appended, and by whom. */
  when: string
  /** One line per payload field. */
  fields: { [F in keyof T]-?: string }
}

const ENDING_FIELDS: EventDoc<TaskEnding>['fields'] = {
  reason: 'why (a NO_GO reason carries the last lines of the agent or check output)',
  attempt: 'the attempt that ended it (absent when none ran)',
  exitCode: "the agent's exit code (null when it was killed or never started)",
  commitSha: 'the commit holding its work on the task branch, or null',
  filesChanged: 'how many files the attempt changed',
  dependency: 'the dependency that blocked it (task_blocked)',
  approvalId: 'the approval request that decided it'
}

/** The event list of the docs, in the order a run usually emits them. */
export const EVENT_DOCS: { [K in EventType]: EventDoc<OrchestratorEvents[K]> } = {
  sprint_planned: {
    when: 'a sprint was planned (plan command, POST /api/plan, a process submission)',
    fields: { mode: 'structured or ai', tasks: 'how many tasks', warnings: "the planner's warnings" }
  },
  job_started: {
    when: 'a detached job process was launched for the sprint',
    fields: { jobId: 'the job', pid: 'its process id', resume: 'true when it resumes a crashed or killed run' }
  },
  sprint_resumed: {
    when: 'a resume put unfinished tasks back to PENDING',
    fields: { jobId: 'the resuming job', tasks: 'the task ids it will run again' }
  },
  sprint_started: {
    when: 'the job began scheduling the sprint',
    fields: { jobId: 'the job', resume: 'a resumed run', tasks: 'tasks in the sprint', maxWorkers: 'engine.max_workers' }
  },
  task_awaiting_approval: {
    when: 'a task waits for a human: before it runs (its risk needs approval) or while its agent runs (the agent asked for a permission)',
    fields: {
      approvalId: 'the approval request to decide',
      expiresAt: 'when it expires (then its default action applies)',
      summary: "what the agent asked for (only for an agent's request while it runs)"
    }
  },
  task_approved: { when: 'the approval of a waiting task allowed it to run', fields: { approvalId: 'the request' } },
  task_approval_closed: {
    when: "a request the task's agent raised while it ran was decided, expired or withdrawn (the agent ended first)",
    fields: {
      approvalId: 'the request',
      outcome: 'approved, denied, expired or withdrawn',
      reason: 'the decision as the NO_GO reason would name it',
      status: "the task's status afterwards (EXECUTING once no request of it is open)"
    }
  },
  task_claimed: { when: 'a worker took the task', fields: { jobId: 'the job' } },
  task_started: {
    when: 'an attempt started its agent',
    fields: { attempt: 'attempt number (1-based)', agent: 'the configured agent name', logFile: "the task's worker log" }
  },
  task_heartbeat: {
    when: 'at most every 15 s while an agent or the check runs',
    fields: { status: 'EXECUTING or TESTING', currentAction: 'what it is doing (last output line)', sequence: 'beats so far' }
  },
  task_retry: {
    when: 'an attempt failed for a transient reason and the next one is scheduled',
    fields: { attempt: 'the failed attempt', nextAttempt: 'the next one', delayMs: 'backoff before it', reason: 'why it failed' }
  },
  task_done: { when: 'the agent exited 0, changed files when a change was expected and the check passed', fields: ENDING_FIELDS },
  task_no_go: { when: 'the task failed (the reason says why)', fields: ENDING_FIELDS },
  task_blocked: { when: 'a dependency ended NO_GO, CANCELLED or BLOCKED (or the dependencies form a cycle)', fields: ENDING_FIELDS },
  task_cancelled: { when: 'a kill, a budget stop or an interruption stopped the task', fields: ENDING_FIELDS },
  task_killed: { when: 'one task was killed by a user', fields: { killedPids: 'the agent process groups killed' } },
  budget_exceeded: {
    when: "the sprint's token or cost budget was reached; the run stops",
    fields: {
      reason: 'which limit',
      tokensUsed: 'tokens used by the sprint',
      costMicroUsd: 'cost so far in micro-dollars',
      limitTokens: 'budget.sprint_tokens or null',
      limitMicroUsd: 'budget.sprint_usd in micro-dollars or null'
    }
  },
  sprint_finished: {
    when: 'the job finished scheduling',
    fields: { jobId: 'the job', status: 'COMPLETE or ABORTED', stopReason: 'why it stopped early, or null', counts: 'tasks per status' }
  },
  job_killed: {
    when: 'a user killed the run',
    fields: {
      jobId: 'the job',
      pid: 'its process id',
      gracefully: 'the job stopped its agents itself within the grace period',
      killedPids: 'process groups killed after the grace period',
      cancelledTasks: 'tasks cancelled by the kill'
    }
  },
  job_orphaned: {
    when: 'the job process died or stopped beating; its tasks are ORPHANED and resumable',
    fields: {
      jobId: 'the job',
      pid: 'its process id',
      reason: 'how it was found dead',
      tasks: 'tasks left ORPHANED',
      killedPids: 'agent process groups killed'
    }
  },
  cleanup: {
    when: 'finished worktrees were cleaned up',
    fields: { removed: 'worktrees removed', kept: 'worktrees kept (with a reason each)' }
  },
  coverage_recorded: {
    when: "after a sprint, the project's coverage command ran",
    fields: { coverage: 'the percentage read from its output, or null', exitCode: 'its exit code' }
  },
  merge_started: {
    when: 'a merge queue run started (quartet merge, POST /api/merge)',
    fields: { mergeId: 'the run', target: 'the branch it lands on', strategy: 'merge, squash or rebase', tasks: 'task ids in queue order' }
  },
  merge_task: {
    when: 'the merge queue finished one task',
    fields: {
      mergeId: 'the run',
      taskId: 'the task',
      status: 'MERGED, CONFLICT, RESOLVED (an agent resolved the conflict; it waits for review), CHECK_FAILED, SKIPPED or INTERRUPTED',
      files: 'conflicted files (CONFLICT, RESOLVED)',
      commitSha: 'the commit the target now points at (MERGED); the resolution on the task branch (RESOLVED)',
      reason: 'why it did not merge'
    }
  },
  merge_finished: {
    when: 'a merge queue run ended',
    fields: { mergeId: 'the run', status: 'done (every task merged) or failed', merged: 'tasks merged', total: 'tasks queued' }
  },
  task_xverified: {
    when: 'a task that ended DONE was cross-verified by another provider (cross_verify.after_task); its status stays DONE',
    fields: {
      verdict: 'CONFIRMED, REFUTED, UNCLEAR, HOLD (no genuine verdict) or SKIPPED (no verifier of another provider)',
      closed: 'true only for CONFIRMED with its whole chain (provider call, usage, closed settlement, receipt)',
      reason: "the verifier's reason, or why it held or was skipped",
      verifier: 'the verifying agent, or null when skipped',
      receiptRef: 'cross-verify-verdict:sha256:<digest> when closed, else null'
    }
  }
}

export const EVENT_TYPES = Object.keys(EVENT_DOCS) as EventType[]

/** The docs' event table (markdown), generated from EVENT_DOCS. */
export function eventTableMarkdown(): string {
  const lines = ['| event | when | data |', '|---|---|---|']
  for (const type of EVENT_TYPES) {
    const doc = EVENT_DOCS[type] as EventDoc<Record<string, unknown>>
    const fields = Object.entries(doc.fields).map(([name, text]) => `\`${name}\`: ${String(text)}`)
    lines.push(`| \`${type}\` | ${doc.when} | ${fields.join('; ')} |`)
  }
  return `${lines.join('\n')}\n`
}
