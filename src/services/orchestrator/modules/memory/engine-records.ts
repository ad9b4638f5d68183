/**
 * What the engine remembers: the plan decision of each sprint, and when a sprint ends its summary,
 * each NO_GO reason, and the debt (NO_GO and BLOCKED tasks). Each fact has a source key, so
 * recording it again (a resumed sprint) replaces the entry instead of adding one.
 */
import type { Sprint, Task } from '../../state/domain.js'
import type { PlannedSprint } from '../../engine/engine.service.js'
import { LOCAL_TENANT } from '../../principal.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'

type RecordRepositories = Pick<OrchestratorRepositories, 'memory' | 'sprints' | 'tasks'>

const DEBT_STATUSES = new Set(['NO_GO', 'BLOCKED'])

function taskLine(task: Task): string {
  const reason = task.reason
    ? `: ${
        task.reason
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim() ?? ''
      }`
    : ''
  return `- ${task.id} ${task.title} — ${task.status}${reason}`
}

export async function recordPlanDecision(
  repos: RecordRepositories,
  projectId: number,
  sprint: Sprint,
  plan: { mode: string; tasks: Task[]; warnings: readonly string[] }
): Promise<void> {
  const warnings = plan.warnings.length > 0 ? `\n\nWarnings:\n${plan.warnings.map((w) => `- ${w}`).join('\n')}` : ''
  await repos.memory.upsert({ projectId, tenantId: LOCAL_TENANT }, `sprint:${sprint.id}:plan`, {
    type: 'decision',
    source: 'system',
    title: `Plan of ${sprint.id}: ${sprint.title}`,
    content:
      `Planned ${plan.tasks.length} task(s) in ${plan.mode} mode.\n\n` +
      `${plan.tasks.map((t) => `- ${t.id} ${t.title}`).join('\n')}${warnings}`,
    summary: `${plan.tasks.length} task(s), ${plan.mode} planner`,
    tags: ['plan', sprint.id],
    sprintId: sprint.id,
    sprintNum: sprint.number,
    metadata: { sprintId: sprint.id, mode: plan.mode, tasks: plan.tasks.length }
  })
}

export async function recordSprintOutcome(repos: RecordRepositories, projectId: number, sprintId: string): Promise<void> {
  const sprint = await repos.sprints.get(sprintId)
  if (!sprint) return
  const scope = { projectId, tenantId: LOCAL_TENANT }
  const tasks = await repos.tasks.listBySprint(sprintId)
  const counts = new Map<string, number>()
  for (const task of tasks) counts.set(task.status, (counts.get(task.status) ?? 0) + 1)
  const countText = [...counts].map(([status, n]) => `${n} ${status}`).join(', ')
  const usage = `${sprint.tokensUsed} tokens, $${(sprint.costMicroUsd / 1e6).toFixed(4)}`
  const base = { source: 'system', sprintId: sprint.id, sprintNum: sprint.number }

  await repos.memory.upsert(scope, `sprint:${sprint.id}:summary`, {
    ...base,
    type: 'sprint',
    title: `Sprint ${sprint.id}: ${sprint.title} — ${sprint.status}`,
    content:
      `${countText || 'no tasks'}; ${usage}${sprint.stopReason ? `; stopped: ${sprint.stopReason}` : ''}.\n\n` +
      `${tasks.map(taskLine).join('\n')}`,
    summary: countText,
    tags: ['sprint', sprint.id],
    metadata: { sprintId: sprint.id, status: sprint.status, counts: Object.fromEntries(counts) }
  })
  for (const task of tasks) {
    if (!DEBT_STATUSES.has(task.status)) continue
    const reason = task.reason ?? 'no reason recorded'
    const metadata = {
      taskId: task.id,
      taskTitle: task.title,
      taskStatus: task.status,
      sprintId: sprint.id,
      sprintTitle: sprint.title,
      branch: task.branch
    }
    if (task.status === 'NO_GO') {
      await repos.memory.upsert(scope, `task:${task.id}:no-go`, {
        ...base,
        type: 'error',
        title: `NO_GO ${task.id}: ${task.title}`,
        content: reason,
        tags: ['no-go', sprint.id],
        metadata
      })
    }
    await repos.memory.upsert(scope, `task:${task.id}:debt`, {
      ...base,
      type: 'debt',
      status: 'active',
      title: `${task.status} ${task.id}: ${task.title}`,
      content: reason,
      tags: ['debt', sprint.id],
      metadata
    })
  }
}

/** The engine's hooks that keep its memory: wired by the composition root (compose.ts). */
export function createEngineRecords(deps: { repositories: RecordRepositories; projectId: number }) {
  return {
    planDecided: (planned: PlannedSprint) =>
      recordPlanDecision(deps.repositories, deps.projectId, planned.sprint, {
        mode: planned.mode,
        tasks: planned.tasks,
        warnings: planned.warnings
      }),
    sprintEnded: (sprintId: string) => recordSprintOutcome(deps.repositories, deps.projectId, sprintId)
  }
}
