import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

interface Run {
  agent: string
  model: string
  ok: boolean
}

let clock = Date.parse('2030-01-01T00:00:00Z')
const tick = () => new Date((clock += 60_000)).toISOString()

/** Records a finished sprint the way the engine leaves it: tasks with verdicts, attempts with the reported model. */
async function recordSprint(orch: OrchestratorHarness, digest: string, runs: Run[]) {
  const db = orch.database.db as OrchestratorDb
  const projectId = (await db.selectFrom('orch_projects').select('id').executeTakeFirstOrThrow()).id
  const { sprint, tasks } = await orch.repositories.sprints.createFromPlan(
    projectId,
    {
      mode: 'structured',
      warnings: [],
      tasks: runs.map((run, i) => ({
        key: String(i + 1),
        title: `task ${i + 1}`,
        description: 'x',
        dependencies: [],
        files: [],
        goCriteria: [],
        noGoCriteria: [],
        priority: 'NORMAL',
        agent: run.agent,
        expectChange: false
      }))
    },
    { title: `sprint ${digest}`, directivesDigest: digest }
  )
  const job = await db
    .insertInto('orch_jobs')
    .values({ project_id: projectId, sprint_id: sprint.id, status: 'completed', active: 0, created_at: tick() })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const [i, run] of runs.entries()) {
    const task = tasks[i]!
    const startedAt = tick()
    await db
      .insertInto('orch_attempts')
      .values({
        task_id: task.id,
        job_id: job.id,
        number: 1,
        agent: run.agent,
        status: run.ok ? 'DONE' : 'NO_GO',
        model: run.model,
        started_at: startedAt
      })
      .execute()
    await db
      .updateTable('orch_tasks')
      .set({ status: run.ok ? 'DONE' : 'NO_GO', started_at: startedAt, finished_at: tick() })
      .where('id', '=', task.id)
      .execute()
  }
}

const many = (agent: string, model: string, oks: boolean[]): Run[] => oks.map((ok) => ({ agent, model, ok }))

test('empty project: empty projections', async () => {
  const orch = await startOrchestrator()
  assert.deepEqual((await orch.call('GET', '/api/evolution/genealogy')).json, { roots: [], nodes: {}, edges: [] })
  assert.deepEqual((await orch.call('GET', '/api/evolution/retirement')).json, [])
  assert.deepEqual((await orch.call('GET', '/api/evolution/prompt-metrics')).json, [])
  assert.equal((await orch.call('GET', '/api/evolution/other')).status, 404)
})

test('genealogy, retirement and prompt metrics are projected from recorded runs', async () => {
  const orch = await startOrchestrator({ config: { evolution: { retirement_window: 4, retirement_threshold: 0.5 } } })
  // coder: model m1 then m2; prompt v1 (1 of 4 done) then v2 (3 of 4 done).
  await recordSprint(orch, 'aaaaaaaaaaaa1111', [...many('coder', 'm1', [true, false, false, false]), ...many('flaky', 'x', [true, true])])
  await recordSprint(orch, 'bbbbbbbbbbbb2222', [
    ...many('coder', 'm2', [true, true, true, false]),
    ...many('flaky', 'x', [false, false, false])
  ])

  const genealogy = (await orch.call('GET', '/api/evolution/genealogy')).json
  assert.deepEqual(genealogy.roots.sort(), ['coder@m1', 'flaky@x'])
  assert.deepEqual(genealogy.edges, [{ parent: 'coder@m1', child: 'coder@m2' }])
  assert.equal(genealogy.nodes['coder@m2'].uses, 4)

  const retirement = (await orch.call('GET', '/api/evolution/retirement')).json
  // flaky: its last 4 are 1 done of 4 (0.25 < 0.5); coder: last 4 are 3 of 4.
  assert.deepEqual(
    retirement.map((r: { id: string; stats: unknown }) => [r.id, r.stats]),
    [['flaky', { successRate: 0.25, totalUses: 5, sprintsParticipated: 2 }]]
  )

  const metrics = (await orch.call('GET', '/api/evolution/prompt-metrics')).json
  const coder = metrics.find((m: { agentId: string }) => m.agentId === 'coder')
  assert.equal(coder.currentVersion, 'bbbbbbbbbbbb')
  assert.equal(coder.totalVersions, 2)
  assert.equal(coder.currentSuccessRate, 0.75)
  assert.equal(coder.trend, 'improving')
  const flaky = metrics.find((m: { agentId: string }) => m.agentId === 'flaky')
  assert.equal(flaky.trend, 'declining')
  assert.equal(flaky.currentSuccessRate, 0)
})
