/**
 * Read-only views over what the engine recorded: agents and routing, coverage, docs freshness,
 * evaluation health, usage limits, KPIs, readiness (doctor) and debt. Views that diagnose the
 * configuration (agents, doctor) read its errors; the others need a valid one.
 */
import { runDoctor } from '../../engine/doctor.js'
import type { Git } from '../../engine/git.js'
import type { EnginePlatform } from '../../engine/types.js'
import { orchestratorError } from '../../errors.js'
import { LOCAL_TENANT } from '../../principal.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import { listAgents, routingDistribution } from './agents.service.js'
import { coverageHistory } from './coverage.service.js'
import { debtMarkdown } from './debt.service.js'
import { docsHealth } from './docs-health.service.js'
import type { InsightRepositories } from './insight-repositories.js'
import { EVALUATE_HEALTH_DEFAULT_N, EVALUATE_HEALTH_MAX_N, evaluateHealth, parseSprintWindow } from './evaluate-health.service.js'
import { KPI_DEFINITIONS, kpiTrend, scorecard, sprintFacts } from './kpi.service.js'
import { usageLimits } from './limits.service.js'

const KPI_TREND_DEFAULT_N = 12
const KPI_TREND_MAX_N = 100

export interface InsightDeps {
  projectId: number
  projectRoot: string
  dataDir: string
  repositories: InsightRepositories
  config: ProjectConfigSource
  git: Git
  platform: EnginePlatform
  env: Readonly<Record<string, string | undefined>>
  clock: () => Date
}

export function createInsightService(deps: InsightDeps) {
  const { repositories: repos, projectId, projectRoot } = deps
  const env = { ...deps.env }

  return {
    async agents() {
      return listAgents({ configResult: deps.config.read(), attempts: await repos.insight.attempts(projectId), root: projectRoot, env })
    },

    async distribution() {
      return routingDistribution(await repos.insight.attempts(projectId))
    },

    coverage() {
      return coverageHistory(repos, projectId, deps.config.current())
    },

    docsHealth() {
      return docsHealth(deps.git, projectRoot, deps.clock())
    },

    /** `n`: the raw query value (default 20, at most 200). */
    evaluateHealth(n: string | undefined) {
      return evaluateHealth(repos, projectId, parseSprintWindow(n, EVALUATE_HEALTH_DEFAULT_N, EVALUATE_HEALTH_MAX_N), deps.clock())
    },

    limits() {
      return usageLimits(repos, projectId, deps.config.current(), deps.clock())
    },

    /** The scorecard of a sprint of this project (the newest when none is named). */
    async kpi(sprintId: string | undefined) {
      const sprint = sprintId ? await repos.sprints.get(sprintId) : await repos.sprints.latest(projectId)
      if (sprintId && (!sprint || sprint.projectId !== projectId))
        throw orchestratorError('ORCH_SPRINT_NOT_FOUND', `sprint ${sprintId} not found`)
      const facts = sprint ? (await sprintFacts(repos, projectId, [sprint]))[0]! : null
      return scorecard(deps.config.current(), facts)
    },

    /** One KPI over the last `n` sprints (raw query value; default 12, at most 100), oldest first. */
    async kpiTrend(kpiId: string | undefined, n: string | undefined) {
      const definition = KPI_DEFINITIONS.find((d) => d.id === kpiId)
      if (!definition) {
        const known = KPI_DEFINITIONS.map((d) => d.id).join(', ')
        throw orchestratorError('NOT_FOUND', `unknown kpiId "${kpiId ?? ''}" (known: ${known})`)
      }
      const window = parseSprintWindow(n, KPI_TREND_DEFAULT_N, KPI_TREND_MAX_N)
      const facts = await sprintFacts(repos, projectId, await repos.sprints.list(projectId, window))
      return kpiTrend(definition, deps.config.current(), facts)
    },

    doctor() {
      return runDoctor({ root: projectRoot, dataDir: deps.dataDir, configResult: deps.config.read(), platform: deps.platform, env })
    },

    async debt() {
      return { content: await debtMarkdown(repos, { projectId, tenantId: LOCAL_TENANT }) }
    }
  }
}

export type InsightService = ReturnType<typeof createInsightService>
