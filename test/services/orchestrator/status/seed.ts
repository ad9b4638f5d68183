import type { PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'
import type { OrchestratorHarness } from '../../../helpers/orchestrator.js'

function plannedTask(key: string, title: string, dependencies: string[] = []): PlannedTask {
  return {
    key,
    title,
    description: `${title} described`,
    dependencies,
    files: [`src/${key}.ts`],
    goCriteria: ['it works'],
    noGoCriteria: [],
    priority: 'NORMAL',
    expectChange: true
  }
}

/** A planned sprint stored straight through the repositories (no engine involved). */
export async function seedSprint(orch: OrchestratorHarness, titles: string[]) {
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const plan = { mode: 'structured' as const, tasks: titles.map((title, i) => plannedTask(String(i + 1), title)), warnings: [] }
  const { sprint, tasks } = await orch.repositories.sprints.createFromPlan(projectId, plan, { title: 'Seeded', directivesDigest: null })
  return { projectId, sprint, tasks }
}

/** Moves a task to EXECUTING the way a job does (CLAIMED first). */
export async function markExecuting(orch: OrchestratorHarness, taskId: string): Promise<void> {
  if (!(await orch.repositories.tasks.transition(taskId, 'CLAIMED', { from: ['PENDING'] }))) throw new Error(`cannot claim ${taskId}`)
  if (
    !(await orch.repositories.tasks.transition(taskId, 'EXECUTING', {
      from: ['CLAIMED'],
      attempts: 1,
      startedAt: new Date().toISOString()
    }))
  )
    throw new Error(`cannot start ${taskId}`)
}
