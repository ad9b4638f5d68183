/**
 * The autonomous, nervous, evolution and ingress part of the composition root: the backlog and
 * its schedules, the detectors beside the engine, projections of recorded runs, and webhook
 * connectors feeding the first two.
 */
import type { Kysely } from 'kysely'
import type { Logger } from '../../core/logger.js'
import { taskLogFile } from './engine/worker-log.js'
import type { RunControl } from './engine/run-control.js'
import { createAutonomousService } from './modules/autonomous/autonomous.service.js'
import { createEvolutionService } from './modules/evolution/evolution.service.js'
import { createIngressService } from './modules/ingress/ingress.service.js'
import { createNervousService } from './modules/nervous/nervous.service.js'
import type { SubmissionsService } from './modules/submissions/submissions.service.js'
import { LOCAL_TENANT, type Principal } from './principal.js'
import type { ProjectConfigSource } from './project/config-source.js'
import { createAutonomousRepository, type AutonomousTables } from './state/autonomous.repository.js'
import { createEvolutionRepository } from './state/evolution.repository.js'
import { createNervousRepository, type NervousTables } from './state/nervous.repository.js'

export interface AutonomyDeps {
  db: unknown
  projectId: number
  dataDir: string
  config: ProjectConfigSource
  clock: () => Date
  newId: (prefix: string) => string
  submissions: SubmissionsService
  runControl: RunControl
  env: Readonly<Record<string, string | undefined>>
  logger: Pick<Logger, 'warn'>
}

export function composeAutonomy(deps: AutonomyDeps) {
  const { projectId, dataDir, config, clock, newId, submissions, runControl } = deps
  // Autonomous work is submitted as the engine acting for the entry's tenant: the process policy
  // (effect classes, approvals) applies to it; the API's control switch does not (the owner turned
  // autonomous.enabled on in the project's file).
  const autonomousPrincipal = (tenantId: string): Principal => ({
    id: 'autonomous',
    label: 'autonomous',
    tenantId,
    tenantClaimed: false,
    role: 'admin',
    channel: 'engine'
  })
  const autonomousRepository = createAutonomousRepository(deps.db as unknown as Kysely<AutonomousTables>, projectId, clock)
  const autonomous = createAutonomousService({
    repository: autonomousRepository,
    config: () => config.current().autonomous,
    clock,
    newId,
    submit: (entry) =>
      submissions.submit(
        { description: entry.description, kind: entry.kind === 'sprint' ? 'sprint' : 'task' },
        autonomousPrincipal(entry.tenantId),
        'autonomous'
      ),
    executionStatus: async (tenantId, executionId) => {
      const view = await submissions.view(autonomousPrincipal(tenantId), executionId).catch(() => undefined)
      return view && { status: view.status, reason: view.reason }
    },
    isBusy: (error) => (error as { code?: unknown }).code === 'ORCH_RUN_ACTIVE',
    onError: (error, what) => deps.logger.warn({ err: error }, `orchestrator: autonomous ${what} failed`)
  })

  const nervous = createNervousService({
    repository: createNervousRepository(deps.db as unknown as Kysely<NervousTables>, projectId, clock),
    config: () => config.current(),
    dataDir,
    logFileOf: (task) => taskLogFile(dataDir, task.sprintId, task.taskId),
    clock,
    newId,
    killTask: (taskId) => runControl.killTask(taskId),
    killJob: () => runControl.killJob(projectId),
    onError: (error, what) => deps.logger.warn({ err: error }, `orchestrator: nervous ${what} failed`)
  })

  const evolution = createEvolutionService({
    repository: createEvolutionRepository(deps.db as unknown as Parameters<typeof createEvolutionRepository>[0], projectId),
    config: () => config.current()
  })

  const ingress = createIngressService({
    connectors: () => config.current().ingress.connectors,
    env: deps.env,
    deliveries: autonomousRepository,
    clock,
    toAutonomous: (input, requestedBy) => autonomous.enqueue(input, LOCAL_TENANT, requestedBy),
    toNervous: (input, channel) => nervous.ingest(input, channel)
  })

  return { autonomous, nervous, evolution, ingress }
}
