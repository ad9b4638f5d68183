import type { MigrationSet } from '../../../core/db/migrations.js'
import { initMigration } from './0001-init.js'
import { coverageMigration } from './0002-coverage.js'
import { taskChangesMigration } from './0003-task-changes.js'
import { memoryMigration } from './0004-memory.js'
import { approvalsMigration } from './0005-approvals.js'
import { processMissionsMigration } from './0006-process-missions.js'
import { approvalTenantsMigration } from './0007-approval-tenants.js'
import { runMissionsMigration } from './0008-run-missions.js'
import { memoryVersionMigration } from './0009-memory-version.js'

export const orchestratorMigrations: MigrationSet = {
  orchestrator_0001_init: initMigration,
  orchestrator_0002_coverage: coverageMigration,
  orchestrator_0003_task_changes: taskChangesMigration,
  orchestrator_0004_memory: memoryMigration,
  // Numbered 0004 too until both 0004s were told apart; databases migrated before keep working (see renamedFrom).
  orchestrator_0005_approvals: { ...approvalsMigration, renamedFrom: ['orchestrator_0004_approvals'] },
  orchestrator_0006_process_missions: processMissionsMigration,
  orchestrator_0007_approval_tenants: approvalTenantsMigration,
  orchestrator_0008_run_missions: runMissionsMigration,
  orchestrator_0009_memory_version: memoryVersionMigration
}
