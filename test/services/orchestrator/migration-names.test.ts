import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import type { Kysely } from 'kysely'
import { migrateToLatest, type MigrationSet } from '../../../src/core/db/migrations.js'
import { initMigration } from '../../../src/services/orchestrator/migrations/0001-init.js'
import { coverageMigration } from '../../../src/services/orchestrator/migrations/0002-coverage.js'
import { taskChangesMigration } from '../../../src/services/orchestrator/migrations/0003-task-changes.js'
import { memoryMigration } from '../../../src/services/orchestrator/migrations/0004-memory.js'
import { approvalsMigration } from '../../../src/services/orchestrator/migrations/0005-approvals.js'
import { processMissionsMigration } from '../../../src/services/orchestrator/migrations/0006-process-missions.js'
import { approvalTenantsMigration } from '../../../src/services/orchestrator/migrations/0007-approval-tenants.js'
import { runMissionsMigration } from '../../../src/services/orchestrator/migrations/0008-run-missions.js'
import { memoryVersionMigration } from '../../../src/services/orchestrator/migrations/0009-memory-version.js'
import { orchestratorMigrations } from '../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../../../src/services/orchestrator/state/repositories.js'
import { createTestDatabase, snapshotTables } from '../../helpers/db.js'

/** The set as databases recorded it before every migration had a number of its own (two 0004s, no 0005). */
const OLD_NAMES: MigrationSet = {
  orchestrator_0001_init: initMigration,
  orchestrator_0002_coverage: coverageMigration,
  orchestrator_0003_task_changes: taskChangesMigration,
  orchestrator_0004_memory: memoryMigration,
  orchestrator_0004_approvals: approvalsMigration,
  orchestrator_0006_process_missions: processMissionsMigration,
  orchestrator_0007_approval_tenants: approvalTenantsMigration,
  orchestrator_0008_run_missions: runMissionsMigration,
  orchestrator_0009_memory_version: memoryVersionMigration
}

/** Migrations numbered after the renaming: a database from before it runs them (once). */
const LATER = Object.keys(orchestratorMigrations)
  .filter((name) => name > 'orchestrator_0009_memory_version')
  .sort()
/** Renamed nothing yet but ran every later migration: today's schema under the old names (today's repositories can write to it). */
const OLD_NAMES_AND_LATER: MigrationSet = {
  ...OLD_NAMES,
  ...Object.fromEntries(LATER.map((name) => [name, orchestratorMigrations[name]!]))
}

/** The current set, each migration recording its runs. */
function spied(runs: string[]): MigrationSet {
  return Object.fromEntries(
    Object.entries(orchestratorMigrations).map(([name, migration]) => [
      name,
      {
        ...migration,
        async up(db) {
          runs.push(name)
          await migration.up(db)
        }
      }
    ])
  )
}

async function recordedNames(db: Kysely<any>): Promise<string[]> {
  return (await db.selectFrom('quartet_migrations').select('name').orderBy('name').execute()).map((row: { name: string }) => row.name)
}

test('a database migrated under the old names runs nothing again under the new ones; its rows stay as they were', async () => {
  const database = await createTestDatabase([OLD_NAMES_AND_LATER])
  after(() => database.close())
  const db = database.db as OrchestratorDb
  assert.deepEqual(await recordedNames(database.db), Object.keys(OLD_NAMES_AND_LATER).sort())

  const repos = createOrchestratorRepositories(db, () => new Date('2026-03-01T10:00:00.000Z'))
  const projectId = await repos.projects.ensure('/tmp/quartet-renamed-migrations')
  const plan = { mode: 'structured' as const, warnings: [], tasks: [] }
  await repos.sprints.createFromPlan(projectId, plan, { title: 'Before the rename', directivesDigest: null })
  await repos.memory.record({ projectId, tenantId: 'local' }, { type: 'memory', source: 'user', title: 'kept', content: 'lint cache' })
  await db
    .insertInto('orch_approvals')
    .values({
      id: 'apr_renamed00001',
      project_id: projectId,
      tenant_id: 'local',
      task_id: null,
      requester_kind: 'engine',
      requester_id: 'engine',
      summary: 's',
      scope: 'lifecycle',
      risk: 'critical',
      policy: 'require-approval',
      default_action: 'deny',
      masked_args: '{}',
      created_at: '2026-03-01T10:00:00.000Z',
      expires_at: '2999-01-01T00:00:00.000Z'
    })
    .execute()
  const before = await snapshotTables(database, 'orch_')

  const runs: string[] = []
  assert.deepEqual(await migrateToLatest(db, [spied(runs)]), [])
  assert.deepEqual(runs, [], 'no migration ran again')
  assert.deepEqual(await recordedNames(database.db), Object.keys(orchestratorMigrations).sort())
  assert.ok((await recordedNames(database.db)).includes('orchestrator_0005_approvals'))
  assert.equal(await snapshotTables(database, 'orch_'), before, 'every table keeps its rows')
  assert.equal(
    (
      await repos.memory.search(
        { projectId, tenantId: 'local' },
        { terms: ['lint'], mode: 'or', types: [], statuses: [], sprintMin: null },
        0,
        5
      )
    ).hits.length,
    1
  )

  assert.deepEqual(await migrateToLatest(db, [spied(runs)]), [], 'nor on the next start')
  assert.deepEqual(runs, [])
})

test('a database from before the approvals migration runs it once, under its new name', async () => {
  const { orchestrator_0004_approvals: _approvals, ...earlier } = OLD_NAMES
  const database = await createTestDatabase([Object.fromEntries(Object.entries(earlier).filter(([name]) => name < 'orchestrator_0005'))])
  after(() => database.close())
  const runs: string[] = []
  assert.deepEqual(await migrateToLatest(database.db, [spied(runs)]), [
    'orchestrator_0005_approvals',
    'orchestrator_0006_process_missions',
    'orchestrator_0007_approval_tenants',
    'orchestrator_0008_run_missions',
    'orchestrator_0009_memory_version',
    ...LATER
  ])
  assert.deepEqual(runs, [
    'orchestrator_0005_approvals',
    'orchestrator_0006_process_missions',
    'orchestrator_0007_approval_tenants',
    'orchestrator_0008_run_missions',
    'orchestrator_0009_memory_version',
    ...LATER
  ])
  assert.deepEqual(await recordedNames(database.db), Object.keys(orchestratorMigrations).sort())
})
