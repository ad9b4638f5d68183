/**
 * The legal status changes of tasks, sprints and jobs. Repositories check every status change
 * against these tables (a change they do not list is a programming error, thrown before any SQL
 * runs); call sites only name the status they move to, and narrow the statuses they move from
 * where their rule is stricter than the table.
 */
import type { JobStatus, SprintStatus, TaskStatus } from './types.js'

export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  // Planned: waits for its dependencies, an approval, or a free worker.
  PENDING: ['AWAITING_APPROVAL', 'CLAIMED', 'BLOCKED', 'CANCELLED'],
  // Before the run (the risk gate: on to CLAIMED) or inside it (the agent asked a human: back to
  // EXECUTING). The agent may exit, time out or be killed while it waits, so every ending of an
  // executing task is also an ending of a waiting one.
  AWAITING_APPROVAL: ['CLAIMED', 'EXECUTING', 'TESTING', 'DONE', 'NO_GO', 'CANCELLED', 'ORPHANED'],
  CLAIMED: ['EXECUTING', 'CANCELLED', 'ORPHANED'],
  // An attempt that failed for a transient reason goes back to CLAIMED for the next attempt.
  EXECUTING: ['AWAITING_APPROVAL', 'TESTING', 'CLAIMED', 'DONE', 'NO_GO', 'CANCELLED', 'ORPHANED'],
  TESTING: ['CLAIMED', 'DONE', 'NO_GO', 'CANCELLED', 'ORPHANED'],
  DONE: [],
  NO_GO: [],
  // A resumed run picks orphaned tasks up again (after `run --resume` set them PENDING, or directly).
  ORPHANED: ['PENDING', 'AWAITING_APPROVAL', 'CLAIMED', 'BLOCKED', 'CANCELLED'],
  // A kill's cancellations are resumed; other cancellations (budget, dependency) are final by rule, not by table.
  CANCELLED: ['PENDING'],
  BLOCKED: ['PENDING']
}

export const SPRINT_TRANSITIONS: Readonly<Record<SprintStatus, readonly SprintStatus[]>> = {
  PLANNED: ['RUNNING', 'ABORTED', 'ORPHANED'],
  // RUNNING → RUNNING: a resumed job starts the sprint again.
  RUNNING: ['RUNNING', 'COMPLETE', 'ABORTED', 'ORPHANED'],
  COMPLETE: [],
  ABORTED: ['RUNNING'],
  ORPHANED: ['RUNNING', 'ABORTED']
}

export const JOB_TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  queued: ['running', 'completed', 'failed', 'killed', 'orphaned'],
  running: ['completed', 'failed', 'killed', 'orphaned'],
  completed: [],
  failed: [],
  killed: [],
  orphaned: []
}

function sourcesOf<S extends string>(table: Readonly<Record<S, readonly S[]>>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => table[from].includes(to))
}

const TASK_SOURCES = new Map((Object.keys(TASK_TRANSITIONS) as TaskStatus[]).map((to) => [to, sourcesOf(TASK_TRANSITIONS, to)]))
const SPRINT_SOURCES = new Map((Object.keys(SPRINT_TRANSITIONS) as SprintStatus[]).map((to) => [to, sourcesOf(SPRINT_TRANSITIONS, to)]))
const JOB_SOURCES = new Map((Object.keys(JOB_TRANSITIONS) as JobStatus[]).map((to) => [to, sourcesOf(JOB_TRANSITIONS, to)]))

export class IllegalTransitionError extends Error {
  constructor(kind: string, from: readonly string[], to: string) {
    super(`illegal ${kind} transition: ${from.join('|')} → ${to}`)
    this.name = 'IllegalTransitionError'
  }
}

function checked<S extends string>(kind: string, sources: ReadonlyMap<S, S[]>, to: S, only: readonly S[] | undefined): S[] {
  const legal = sources.get(to) ?? []
  if (only === undefined) {
    if (legal.length === 0) throw new IllegalTransitionError(kind, [], to)
    return legal
  }
  const illegal = only.filter((from) => !legal.includes(from))
  if (illegal.length > 0 || only.length === 0) throw new IllegalTransitionError(kind, illegal.length > 0 ? illegal : only, to)
  return [...only]
}

/** The statuses a task may move to `to` from: all the table allows, or `only` (each of which the table must allow). */
export function taskSources(to: TaskStatus, only?: readonly TaskStatus[]): TaskStatus[] {
  return checked('task', TASK_SOURCES, to, only)
}

export function sprintSources(to: SprintStatus, only?: readonly SprintStatus[]): SprintStatus[] {
  return checked('sprint', SPRINT_SOURCES, to, only)
}

export function jobSources(to: JobStatus, only?: readonly JobStatus[]): JobStatus[] {
  return checked('job', JOB_SOURCES, to, only)
}

export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TASK_TRANSITIONS[status].length === 0
}

/** The reason of tasks a user's kill cancelled. */
export const KILLED_BY_USER = 'killed by user'
/** Starts the stop reason of a job that ended for an outside cause (orphaned, project or database gone). */
export const JOB_INTERRUPTED = 'job interrupted: '

/** Tasks cancelled by a kill or an interruption run again on resume; those a budget stop cancelled do not. */
export function resumableStop(reason: string | null): boolean {
  return reason === KILLED_BY_USER || (reason?.startsWith(JOB_INTERRUPTED) ?? false)
}
