import type { OrchestratorDb } from './db.js'
import { createApprovalsRepository } from './approvals.repository.js'
import { createAttemptsRepository } from './attempts.repository.js'
import { createCoverageRepository } from './coverage.repository.js'
import { createEventsRepository } from './events.repository.js'
import { createHeartbeatsRepository } from './heartbeats.repository.js'
import { createInsightRepository } from './insight.repository.js'
import { createJobsRepository } from './jobs.repository.js'
import { createMemoryRepository } from './memory.repository.js'
import { createProjectsRepository } from './projects.repository.js'
import { createSprintsRepository } from './sprints.repository.js'
import { createTasksRepository } from './tasks.repository.js'
import { createViewsRepository } from './views.repository.js'
import { createExecutionsRepository } from './executions.repository.js'
import { createMissionsRepository } from './missions.repository.js'
import { createEnterpriseRepository } from './enterprise.repository.js'
import { createAuditRepository } from './audit.repository.js'

/** Every orchestrator repository over one database handle (the engine's only way to the state). */
export function createOrchestratorRepositories(db: OrchestratorDb, clock: () => Date) {
  return {
    projects: createProjectsRepository(db, clock),
    sprints: createSprintsRepository(db, clock),
    tasks: createTasksRepository(db, clock),
    attempts: createAttemptsRepository(db, clock),
    heartbeats: createHeartbeatsRepository(db, clock),
    jobs: createJobsRepository(db, clock),
    events: createEventsRepository(db, clock),
    insight: createInsightRepository(db),
    coverage: createCoverageRepository(db, clock),
    views: createViewsRepository(db),
    memory: createMemoryRepository(db, clock),
    executions: createExecutionsRepository(db, clock),
    missions: createMissionsRepository(db, clock),
    approvals: createApprovalsRepository(db),
    enterprise: createEnterpriseRepository(db, clock),
    audit: createAuditRepository(db)
  }
}
export type OrchestratorRepositories = ReturnType<typeof createOrchestratorRepositories>
