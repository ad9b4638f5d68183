import { createHash } from 'node:crypto'
import type { Task } from '../../state/domain.js'
import type { PlanPreview, TaskSummary } from '../../state/run-flows.repository.js'

/** Bumped whenever the digest's material changes, so an old digest can never match a new plan by accident. */
export const PLAN_DIGEST_VERSION = 1

/** The material of a plan that an approval covers: every field of every task that decides what runs. */
function planMaterial(tasks: readonly Task[]) {
  return {
    v: PLAN_DIGEST_VERSION,
    tasks: [...tasks]
      .sort((a, b) => a.position - b.position)
      .map((t) => ({
        key: t.key,
        title: t.title,
        description: t.description,
        priority: t.priority,
        agent: t.agent,
        dependencies: t.dependencies,
        files: t.files,
        goCriteria: t.goCriteria,
        noGoCriteria: t.noGoCriteria,
        check: t.check,
        expectChange: t.expectChange,
        risk: t.risk
      }))
  }
}

/** sha256 (64 lowercase hex) over the exact planned tasks. */
export function planDigestOf(tasks: readonly Task[]): string {
  return createHash('sha256')
    .update(JSON.stringify(planMaterial(tasks)))
    .digest('hex')
}

function summaryOf(task: Task): string {
  const line = task.description.split('\n').find((l) => l.replace(/^>\s?/, '').trim() !== '') ?? task.title
  const text = line.replace(/^>\s?/, '').trim()
  return text.length > 200 ? `${text.slice(0, 199)}…` : text
}

/** The preview of a planned sprint: its tasks (from the stored sprint, not the planner's raw answer). */
export function previewOf(input: { flowId: string; revision: number; tasks: readonly Task[]; warnings: string[] }): PlanPreview {
  const ordered = [...input.tasks].sort((a, b) => a.position - b.position)
  const taskSummaries: TaskSummary[] = ordered.map((t) => ({ title: t.title, summary: summaryOf(t) }))
  return {
    flowId: input.flowId,
    revision: input.revision,
    planDigest: planDigestOf(ordered),
    taskSummaries,
    policyDecision: 'needs-approval',
    gateResult: 'skipped',
    writeScopes: ordered.map((t) => ({ title: t.title, files: t.files })),
    warnings: input.warnings
  }
}
