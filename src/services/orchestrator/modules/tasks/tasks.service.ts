import { buildTaskPrompt } from '../../engine/agents/prompt.js'
import { taskLogFile } from '../../engine/worker-log.js'
import type { RunControl } from '../../engine/run-control.js'
import type { TaskStatus } from '../../engine/types.js'
import { orchestratorError } from '../../errors.js'
import { plannedTaskOf, type Attempt, type Task } from '../../state/domain.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import { readLogTail, readLogText, TEXT_CAP } from '../../engine/worker-log.js'
import { attemptsByTask, isActiveTask, toHeartbeatView, toTaskView } from './tasks.render.js'

export const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
export const DEFAULT_TAIL_LINES = 40
export const MAX_TAIL_LINES = 200

export interface TasksDeps {
  projectId: number
  dataDir: string
  repositories: Pick<OrchestratorRepositories, 'tasks' | 'sprints' | 'attempts' | 'heartbeats' | 'jobs'>
  runControl: Pick<RunControl, 'reconcile'>
  clock: () => Date
}

/** `tailLines` of the task detail: absent → the default, else an integer 1..200. */
export function parseTailLines(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TAIL_LINES
  const value = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN
  if (!(value >= 1 && value <= MAX_TAIL_LINES))
    throw orchestratorError('VALIDATION_FAILED', `VALIDATION_ERROR: tailLines must be an integer from 1 to ${MAX_TAIL_LINES}`)
  return value
}

export function assertTaskId(id: string): void {
  if (!TASK_ID.test(id) || id.length > 200) throw orchestratorError('FORBIDDEN', 'Invalid task id')
}

function capped(text: string): { text: string; truncated: boolean } {
  return text.length > TEXT_CAP ? { text: text.slice(0, TEXT_CAP), truncated: true } : { text, truncated: false }
}

function resultOf(task: Task, attempt: Attempt | undefined) {
  if (!attempt || attempt.status === 'running') return null
  return {
    status: attempt.status,
    reason: attempt.reason,
    exitCode: attempt.exitCode,
    attempt: attempt.number,
    agent: attempt.agent,
    filesChanged: task.filesChanged,
    commit: task.commitSha,
    branch: task.branch,
    agentMs: attempt.agentMs,
    usage: {
      inputTokens: attempt.inputTokens,
      outputTokens: attempt.outputTokens,
      costUsd: attempt.costMicroUsd === null ? null : attempt.costMicroUsd / 1e6,
      model: attempt.model
    },
    startedAt: attempt.startedAt,
    finishedAt: attempt.finishedAt
  }
}

/** Task list, task detail, heartbeats and worker logs, all read from the database and the log files. */
export function createTasksService(deps: TasksDeps) {
  const repos = deps.repositories

  async function findTask(id: string, notFoundMessage?: string): Promise<Task> {
    const task = await repos.tasks.getInProject(deps.projectId, id)
    if (!task) throw orchestratorError('ORCH_TASK_NOT_FOUND', notFoundMessage)
    return task
  }

  return {
    logFileOf: (task: Task) => taskLogFile(deps.dataDir, task.sprintId, task.id),

    /** The project's task, or a 404 carrying `notFoundMessage`. */
    findTask,

    /** The tasks of one of the project's sprints (optionally only those in `statuses`), in plan order. */
    tasksOf: (sprintId: string, statuses?: readonly TaskStatus[]) => repos.tasks.listBySprint(sprintId, statuses),

    /** The newest heartbeat of each task of a sprint. */
    heartbeatsOf: (sprintId: string) => repos.heartbeats.listForSprint(sprintId),

    /** The project's task, or undefined. */
    lookup: (id: string) => repos.tasks.getInProject(deps.projectId, id),

    /** Tasks of one sprint (the newest unless named), in plan order. */
    async listTasks(sprintId: string | undefined) {
      const sprint = sprintId === undefined ? await repos.sprints.latest(deps.projectId) : await repos.sprints.get(sprintId)
      if (!sprint || sprint.projectId !== deps.projectId) {
        if (sprintId === undefined) return []
        throw orchestratorError('ORCH_SPRINT_NOT_FOUND')
      }
      const byTask = attemptsByTask(await repos.attempts.listForSprint(sprint.id))
      return (await repos.tasks.listBySprint(sprint.id)).map((row) => toTaskView(row, byTask.get(row.id) ?? []))
    },

    async taskDetail(id: string, tailLines: number) {
      const task = await findTask(id)
      const attempts = await repos.attempts.listForTask(id)
      const lastAttempt = attempts.at(-1)
      const running = lastAttempt?.status === 'running' ? lastAttempt : undefined
      const finished = [...attempts].reverse().find((a) => a.status !== 'running')
      const hb = await repos.heartbeats.get(id)
      const sprintContext = (await repos.sprints.get(task.sprintId))?.context ?? undefined
      const logPath = taskLogFile(deps.dataDir, task.sprintId, task.id)
      const logTail = await readLogTail(logPath, tailLines)
      const result = resultOf(task, finished)
      return {
        taskId: task.id,
        task: toTaskView(task, attempts),
        currentRun: running
          ? { attempt: Number(running.number), agent: running.agent, jobId: Number(running.jobId), startedAt: running.startedAt }
          : null,
        // The plan is the exact prompt the agent is given for this task.
        plan: capped(buildTaskPrompt(plannedTaskOf(task), sprintContext ? { sprintContext } : {})),
        result,
        hb: hb ? toHeartbeatView(hb, deps.clock()) : null,
        lineage: {
          logPath,
          logTailAvailable: logTail !== null,
          logTail,
          resultEvidence: result
            ? { selfAssessment: null, filesChanged: result.filesChanged, notesPresent: logTail !== null && logTail.lines.length > 0 }
            : null
        }
      }
    },

    /** Every heartbeat of the newest sprint, with its task; a beat older than 120 s is flagged stale. */
    async workers() {
      const sprint = await repos.sprints.latest(deps.projectId)
      if (!sprint) return []
      const tasks = new Map((await repos.tasks.listBySprint(sprint.id)).map((t) => [t.id, t]))
      const now = deps.clock()
      return (await repos.heartbeats.listForSprint(sprint.id)).map((row) => {
        const hb = toHeartbeatView(row, now)
        const task = tasks.get(row.taskId)
        return {
          workerId: hb.workerId || null,
          taskId: hb.taskId,
          status: hb.status || 'UNKNOWN',
          sequence: hb.sequence,
          timestamp: hb.timestamp || null,
          taskTitle: task?.title ?? null,
          taskStatus: task?.status ?? null,
          currentAction: hb.currentAction,
          filesChangedCount: hb.filesChangedCount,
          ageMs: hb.ageMs,
          stale: hb.stale
        }
      })
    },

    /** Whether the task runs, or waits for a live job of its sprint to start it (the run reconciled first). */
    async runState(taskId: string): Promise<{ running: boolean; status: string }> {
      await deps.runControl.reconcile(deps.projectId)
      const current = await repos.tasks.get(taskId)
      if (!current) return { running: false, status: 'DELETED' }
      if (isActiveTask(current.status)) return { running: true, status: current.status }
      if (current.status !== 'PENDING') return { running: false, status: current.status }
      const job = await repos.jobs.active(deps.projectId)
      return { running: job?.sprintId === current.sprintId, status: current.status }
    },

    /** The worker of the task's newest heartbeat (null before it beat). */
    async workerOf(taskId: string): Promise<string | null> {
      return (await repos.heartbeats.get(taskId))?.workerId ?? null
    },

    /** The worker log of a task: its last 64,000 characters ("" before the task wrote any). */
    async workerLog(taskId: string) {
      const task = await findTask(taskId, 'Task not found')
      const read = await readLogText(taskLogFile(deps.dataDir, task.sprintId, task.id))
      const attempts = await repos.attempts.listForTask(task.id)
      return { taskId: task.id, log: read?.text ?? '', truncated: read?.truncated ?? false, task: toTaskView(task, attempts) }
    }
  }
}
export type TasksService = ReturnType<typeof createTasksService>
