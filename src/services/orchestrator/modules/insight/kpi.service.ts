/**
 * The KPI scorecard (`GET /api/kpi`) and its trend (`GET /api/kpi/trend`), computed from the
 * sprint's tasks, attempts and coverage. A KPI without data has value null and status unknown;
 * one without a target (e.g. no budget configured) has its value and status unknown too, because
 * there is nothing to judge it against. Judging: "up" KPIs are healthy at or above the target and
 * a warning down to 75 % of it; "down" KPIs are healthy at or below the target and a warning up
 * to 150 % of it; beyond that critical.
 */
import type { ProjectConfig } from '../../project/config-schema.js'
import type { Sprint, Task } from '../../state/domain.js'
import type { AttemptFact } from '../../state/insight.repository.js'
import type { InsightRepositories } from './insight-repositories.js'
import { median, microToUsd, roundTo } from './stats.js'

export type KpiStatus = 'healthy' | 'warning' | 'critical' | 'unknown'

export interface SprintFacts {
  sprint: Sprint
  tasks: Task[]
  attempts: AttemptFact[]
  coverage: number | null
}

interface KpiDefinition {
  id: string
  title: string
  direction: 'up' | 'down'
  format: 'percent' | 'duration' | 'currency' | 'number'
  unit: '%' | 'ms' | 'USD' | 'tokens'
  target(config: ProjectConfig, facts: SprintFacts | null): number | null
  value(facts: SprintFacts): number | null
}

export interface KpiView {
  id: string
  title: { en: string }
  value: number | null
  target: number | null
  status: KpiStatus
  direction: 'up' | 'down'
  format: string
  unit: string
}

const ENDED: readonly string[] = ['DONE', 'NO_GO']
const percent = (part: number, whole: number): number | null => (whole === 0 ? null : roundTo((part / whole) * 100, 1))
const count = (tasks: readonly Task[], status: string): number => tasks.filter((t) => t.status === status).length

export const KPI_DEFINITIONS: readonly KpiDefinition[] = [
  {
    id: 'done_rate',
    title: 'Tasks done',
    direction: 'up',
    format: 'percent',
    unit: '%',
    target: () => 80,
    value: ({ tasks }) => percent(count(tasks, 'DONE'), tasks.length)
  },
  {
    id: 'no_go_rate',
    title: 'NO_GO rate of tasks that ran to an end',
    direction: 'down',
    format: 'percent',
    unit: '%',
    target: () => 20,
    value: ({ tasks }) => percent(count(tasks, 'NO_GO'), tasks.filter((t) => ENDED.includes(t.status)).length)
  },
  {
    id: 'first_attempt_success',
    title: 'Tasks done on their first attempt',
    direction: 'up',
    format: 'percent',
    unit: '%',
    target: () => 70,
    value: ({ attempts }) => {
      const first = attempts.filter((a) => a.number === 1 && a.status !== 'running')
      return percent(first.filter((a) => a.status === 'DONE').length, first.length)
    }
  },
  {
    id: 'engine_overhead_ms',
    title: 'Median engine time per attempt (worktree, commit, check)',
    direction: 'down',
    format: 'duration',
    unit: 'ms',
    target: () => 10_000,
    value: ({ attempts }) =>
      median(
        attempts
          .filter((a) => a.finishedAt !== null && a.agentMs !== null)
          .map((a) => Math.max(0, Date.parse(a.finishedAt!) - Date.parse(a.startedAt) - a.agentMs!))
      )
  },
  {
    id: 'cost_per_done_task',
    title: 'Cost per done task',
    direction: 'down',
    format: 'currency',
    unit: 'USD',
    target: (config, facts) =>
      config.budget.sprint_usd === undefined || !facts || facts.tasks.length === 0
        ? null
        : roundTo(config.budget.sprint_usd / facts.tasks.length, 6),
    value: ({ sprint, tasks, attempts }) => {
      const done = count(tasks, 'DONE')
      return done === 0 || attempts.length === 0 ? null : roundTo(microToUsd(sprint.costMicroUsd) / done, 6)
    }
  },
  {
    id: 'tokens_per_sprint',
    title: 'Tokens used by the sprint',
    direction: 'down',
    format: 'number',
    unit: 'tokens',
    target: (config) => config.budget.sprint_tokens ?? null,
    value: ({ sprint, attempts }) => (attempts.length === 0 ? null : sprint.tokensUsed)
  },
  {
    id: 'coverage',
    title: 'Test coverage after the sprint',
    direction: 'up',
    format: 'percent',
    unit: '%',
    target: (config) => config.coverage.budget_per_sprint ?? null,
    value: ({ coverage }) => coverage
  }
]

export function judge(value: number | null, target: number | null, direction: 'up' | 'down'): KpiStatus {
  if (value === null || target === null) return 'unknown'
  if (direction === 'up') return value >= target ? 'healthy' : value >= target * 0.75 ? 'warning' : 'critical'
  return value <= target ? 'healthy' : value <= target * 1.5 ? 'warning' : 'critical'
}

export function scoreKpi(definition: KpiDefinition, config: ProjectConfig, facts: SprintFacts | null): KpiView {
  const value = facts ? definition.value(facts) : null
  const target = definition.target(config, facts)
  return {
    id: definition.id,
    title: { en: definition.title },
    value,
    target,
    status: judge(value, target, definition.direction),
    direction: definition.direction,
    format: definition.format,
    unit: definition.unit
  }
}

/** Tasks, attempts and coverage of the given sprints, oldest first. */
export async function sprintFacts(
  repositories: InsightRepositories,
  projectId: number,
  sprints: readonly Sprint[]
): Promise<SprintFacts[]> {
  const ids = sprints.map((s) => s.id)
  const [tasks, attempts, coverage] = await Promise.all([
    repositories.insight.tasksOfSprints(ids),
    repositories.insight.attempts(projectId, ids),
    repositories.coverage.listForProject(projectId)
  ])
  const measured = new Map(coverage.map((row) => [row.sprintId, row.coverage]))
  return [...sprints]
    .sort((a, b) => a.number - b.number)
    .map((sprint) => {
      return {
        sprint,
        tasks: tasks.filter((t) => t.sprintId === sprint.id),
        attempts: attempts.filter((a) => a.sprintId === sprint.id),
        coverage: measured.get(sprint.id) ?? null
      }
    })
}

export function scorecard(config: ProjectConfig, facts: SprintFacts | null): { sprintId: string | null; kpis: KpiView[] } {
  return { sprintId: facts?.sprint.id ?? null, kpis: KPI_DEFINITIONS.map((definition) => scoreKpi(definition, config, facts)) }
}

export function kpiTrend(definition: KpiDefinition, config: ProjectConfig, facts: readonly SprintFacts[]) {
  return {
    kpiId: definition.id,
    series: facts.map((f) => {
      const scored = scoreKpi(definition, config, f)
      return { periodKey: f.sprint.id, value: scored.value, status: scored.status }
    })
  }
}
