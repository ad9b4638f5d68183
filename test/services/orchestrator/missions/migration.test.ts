import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { migrateToLatest } from '../../../../src/core/db/migrations.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import { createOrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { createTestDatabase } from '../../../helpers/db.js'

const LATER = 'orchestrator_0008_run_missions'

test("runs started before missions were recorded get one each (local tenant); a submission's run and a recorded one do not", async () => {
  const { [LATER]: runMissions, ...earlier } = orchestratorMigrations
  assert.ok(runMissions)
  const database = await createTestDatabase([earlier])
  after(() => database.close())
  const db = database.db as OrchestratorDb
  const repos = createOrchestratorRepositories(db, () => new Date('2026-02-01T10:00:00.000Z'))
  const projectId = await repos.projects.ensure('/tmp/quartet-migration-project')
  const plan = { mode: 'structured' as const, warnings: [], tasks: [] }
  const sprints = []
  for (const title of ['Old run', 'Submitted', 'Already recorded'])
    sprints.push((await repos.sprints.createFromPlan(projectId, plan, { title, directivesDigest: null })).sprint)
  const jobs = []
  for (const sprint of sprints) {
    const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
    await repos.jobs.finish(job.id, 'completed')
    jobs.push(job)
  }
  await repos.executions.create({
    id: 'proc-1-aaaaaa',
    projectId,
    tenantId: 'local',
    actor: 'a',
    origin: 'api',
    kind: 'task',
    title: 'Submitted',
    request: { description: 'Submitted', kind: 'task', actor: 'a', tenant: 'local', origin: 'api' },
    effectClass: 'pure',
    status: 'running',
    reason: null
  })
  await db.updateTable('orch_executions').set({ job_id: jobs[1]!.id }).execute()
  await repos.missions.create({
    id: 'mis-recorded',
    projectId,
    tenantId: 'acme',
    title: 'Already recorded',
    source: 'run',
    kind: 'sprint',
    jobId: jobs[2]!.id,
    sprintId: sprints[2]!.id
  })

  await migrateToLatest(database.db, [orchestratorMigrations])
  const rows = await db.selectFrom('orch_missions').selectAll().orderBy('id').execute()
  assert.deepEqual(
    rows.map((r) => [r.id, r.tenant_id, r.title, r.source, r.kind, r.job_id, r.sprint_id, r.created_at]),
    [
      [`mis-job-${jobs[0]!.id}`, 'local', 'Old run', 'run', 'sprint', jobs[0]!.id, sprints[0]!.id, jobs[0]!.createdAt],
      ['mis-recorded', 'acme', 'Already recorded', 'run', 'sprint', jobs[2]!.id, sprints[2]!.id, '2026-02-01T10:00:00.000Z']
    ]
  )
  // One mission per job is the database's rule from now on.
  await assert.rejects(
    repos.missions.create({ id: 'mis-twice', projectId, tenantId: 'local', title: 'x', source: 'run', kind: 'sprint', jobId: jobs[0]!.id })
  )
})
