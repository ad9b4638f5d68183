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
import { sprintContextMigration } from './0010-sprint-context.js'
import { runFlowsMigration } from './0011-run-flows.js'
import { mergesMigration } from './0012-merges.js'
import { enterpriseMigration } from './0013-enterprise.js'
import { auditLogMigration } from './0014-audit-log.js'
import { autonomousMigration } from './0015-autonomous.js'
import { nervousMigration } from './0016-nervous.js'
import { terminalMigration } from './0017-terminal.js'
import { taskXverifyMigration } from './0018-task-xverify.js'
import { runFlowsPageIndexMigration } from './0019-run-flows-page-index.js'
import { runFlowRevisionsMigration } from './0020-run-flow-revisions.js'
import { memoryScopeWritesMigration } from './0021-memory-scope-writes.js'
import { runFlowsStateIndexMigration } from './0022-run-flows-state-index.js'

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
  orchestrator_0009_memory_version: memoryVersionMigration,
  orchestrator_0010_sprint_context: sprintContextMigration,
  orchestrator_0011_run_flows: runFlowsMigration,
  orchestrator_0012_merges: mergesMigration,
  orchestrator_0013_enterprise: enterpriseMigration,
  orchestrator_0014_audit_log: auditLogMigration,
  orchestrator_0015_autonomous: autonomousMigration,
  orchestrator_0016_nervous: nervousMigration,
  orchestrator_0017_terminal: terminalMigration,
  // Numbered 0020 on a work branch (0018 and 0019 were reserved and never used).
  orchestrator_0018_task_xverify: { ...taskXverifyMigration, renamedFrom: ['orchestrator_0020_task_xverify'] },
  orchestrator_0019_run_flows_page_index: runFlowsPageIndexMigration,
  orchestrator_0020_run_flow_revisions: runFlowRevisionsMigration,
  orchestrator_0021_memory_scope_writes: memoryScopeWritesMigration,
  orchestrator_0022_run_flows_state_index: runFlowsStateIndexMigration
}
