/**
 * One attempt of one task as the scheduler runs it: hands the task to the executor and records
 * what it reports while it runs — heartbeats (throttled), the process groups it starts, usage
 * against the sprint's budget — as rows and events.
 */
import type { ProjectConfig } from '../project/config-schema.js'
import { toMicroUsd } from '../state/attempts.repository.js'
import { plannedTaskOf, type Task } from '../state/domain.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import { budgetExceeded, type SprintBudget } from './budget.js'
import type { EventType, OrchestratorEvents } from './events.js'
import { processStartTicks } from './process-group.js'
import type { ExecuteTask, TaskRunOutcome } from './types.js'

const HEARTBEAT_WRITE_MS = 1000
const HEARTBEAT_EVENT_MS = 15000

export interface AttemptInput {
  repositories: Pick<OrchestratorRepositories, 'tasks' | 'heartbeats' | 'attempts' | 'sprints'>
  executeTask: ExecuteTask
  config: ProjectConfig
  budget: SprintBudget
  projectRoot: string
  sprintId: string
  jobId: number
  task: Task
  attemptId: number
  attempt: number
  sprintContext?: string
  previous?: { reason: string; logTail: string[] }
  logFile: string
  baseBranches: string[]
  signal: AbortSignal
  emit<K extends EventType>(type: K, data: OrchestratorEvents[K]): Promise<unknown>
  /** The task moved to TESTING (the check command started). */
  onTesting(): void
  onBudgetExceeded(reason: string): Promise<void>
}

function executorFailure(error: unknown, agentMs: number): TaskRunOutcome {
  return {
    status: 'NO_GO',
    reason: `executor failed: ${error instanceof Error ? error.message : String(error)}`,
    transient: false,
    exitCode: null,
    filesChanged: [],
    commitSha: null,
    branch: null,
    worktree: null,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
    logTail: [],
    agentMs
  }
}

export async function runAttempt(input: AttemptInput): Promise<TaskRunOutcome> {
  const { repositories: repos, task, config } = input
  // Callbacks are synchronous for the executor; their writes are chained and awaited before the attempt is closed.
  let writes: Promise<unknown> = Promise.resolve()
  const later = (work: () => Promise<unknown>) => {
    writes = writes.then(work).catch((error: unknown) => process.emitWarning(`orchestrator: ${String(error)}`))
  }
  let lastWrite = 0
  let lastEvent = 0
  let lastStatus = 'EXECUTING'
  const started = Date.now()
  let outcome: TaskRunOutcome
  // The budget this attempt crossed once its agent had exited: the stop waits for the attempt's commit and check.
  let overAfterExit: string | null = null
  try {
    outcome = await input.executeTask({
      projectRoot: input.projectRoot,
      sprintId: input.sprintId,
      taskId: task.id,
      task: plannedTaskOf(task),
      attempt: input.attempt,
      ...(input.sprintContext ? { sprintContext: input.sprintContext } : {}),
      ...(input.previous ? { previous: input.previous } : {}),
      logFile: input.logFile,
      baseBranches: input.baseBranches,
      logCapBytes: config.engine.log_cap_bytes,
      timeoutMs: config.engine.task_timeout_seconds * 1000,
      signal: input.signal,
      onHeartbeat(beat) {
        const now = Date.now()
        const statusChanged = beat.status !== lastStatus
        if (!statusChanged && now - lastWrite < HEARTBEAT_WRITE_MS) return
        lastWrite = now
        lastStatus = beat.status
        const sendEvent = now - lastEvent >= HEARTBEAT_EVENT_MS
        if (sendEvent) lastEvent = now
        later(async () => {
          if (statusChanged && beat.status === 'TESTING' && (await repos.tasks.transition(task.id, 'TESTING'))) input.onTesting()
          const hb = await repos.heartbeats.upsert(task.id, {
            workerId: `job-${input.jobId}`,
            status: beat.status,
            currentAction: beat.currentAction,
            filesChangedCount: beat.filesChangedCount ?? 0
          })
          if (sendEvent)
            await input.emit('task_heartbeat', { status: beat.status, currentAction: beat.currentAction, sequence: hb.sequence })
        })
      },
      async onWorkspace(workspace) {
        await repos.tasks.setWorkspace(task.id, workspace)
      },
      onProcess(pid) {
        // Read now, while the process is certainly the one just started.
        const startTicks = processStartTicks(pid)
        later(() => repos.attempts.addPid(input.attemptId, pid, startTicks))
      },
      onUsage(usage, options) {
        later(async () => {
          await repos.attempts.addUsage(input.attemptId, usage)
          const total = await repos.sprints.addUsage(input.sprintId, usage.inputTokens + usage.outputTokens, toMicroUsd(usage.costUsd))
          const over = budgetExceeded(total, input.budget)
          if (over && options?.final) overAfterExit = over
          else if (over) await input.onBudgetExceeded(over)
        })
      }
    })
  } catch (error) {
    outcome = executorFailure(error, Date.now() - started)
  }
  await writes
  if (overAfterExit) await input.onBudgetExceeded(overAfterExit)
  return outcome
}
