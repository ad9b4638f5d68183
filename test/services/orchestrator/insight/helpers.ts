import assert from 'node:assert/strict'
import { eventually, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

/** Plans DIRECTIVES.md over HTTP, starts the detached job and waits until the sprint has ended. */
export async function runSprintToEnd(orch: OrchestratorHarness): Promise<string> {
  const planned = await orch.call('POST', '/api/plan')
  assert.equal(planned.status, 200, planned.body)
  const started = await orch.call('POST', '/api/start')
  assert.equal(started.status, 202, started.body)
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  await eventually(
    async () => {
      const sprint = await orch.repositories.sprints.latest(projectId)
      return sprint?.status === 'COMPLETE' || sprint?.status === 'ABORTED'
    },
    90_000,
    'the sprint to end'
  )
  await eventually(async () => (await orch.repositories.jobs.get(started.json.jobId))?.active === false, 20_000, 'the job to finish')
  return planned.json.id as string
}

/** The 25 cells of the docs-health heatmap as "bucket/state=count" (non-zero ones only). */
export function nonZeroCells(heatmap: Array<{ bucket: string; state: string; count: number }>): string[] {
  return heatmap.filter((cell) => cell.count > 0).map((cell) => `${cell.bucket}/${cell.state}=${cell.count}`)
}
