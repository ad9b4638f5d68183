import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { OrchestratorState } from '../../app.js'
import { runDoctor } from '../../engine/doctor.js'
import { orchestratorError } from '../../errors.js'
import { loadProjectConfig } from '../../project/config.js'
import { listAgents, routingDistribution } from './agents.service.js'
import { coverageHistory } from './coverage.service.js'
import { debtMarkdown } from './debt.service.js'
import { LOCAL_TENANT } from '../memory/principal.js'
import { docsHealth } from './docs-health.service.js'
import { EVALUATE_HEALTH_DEFAULT_N, EVALUATE_HEALTH_MAX_N, evaluateHealth, parseSprintWindow } from './evaluate-health.service.js'
import * as schemas from './insight.schemas.js'
import { KPI_DEFINITIONS, kpiTrend, scorecard, sprintFacts } from './kpi.service.js'
import { usageLimits } from './limits.service.js'

export interface InsightDeps {
  state: OrchestratorState
  env: Readonly<Record<string, string | undefined>>
}

const KPI_TREND_DEFAULT_N = 12
const KPI_TREND_MAX_N = 100
const Query = (fields: Record<string, ReturnType<typeof Type.String>>) =>
  Type.Object(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])))

/** Read-only views over the recorded state: agents, routing, coverage, docs, evaluation health, limits, KPIs, doctor, debt. */
export function insightRoutes({ state, env }: InsightDeps) {
  const { repositories: repos, projectId, projectRoot } = state
  const config = () => loadProjectConfig(projectRoot)
  const envRecord = { ...env }

  return async function register(app: App) {
    app.get(
      '/api/agents',
      {
        schema: {
          tags: ['insight'],
          summary: 'Configured agents with their recorded usage (attempts, DONE rate, tokens, cost, median agent time)',
          response: { 200: schemas.AgentsBody }
        }
      },
      async () =>
        listAgents({ configResult: config(), attempts: await repos.insight.attempts(projectId), root: projectRoot, env: envRecord })
    )

    app.get(
      '/api/routing/distribution',
      {
        schema: {
          tags: ['insight'],
          summary: 'Share of recorded attempts per agent, with an IMBALANCE warning above 80 %',
          response: { 200: schemas.DistributionBody }
        }
      },
      async () => routingDistribution(await repos.insight.attempts(projectId))
    )

    app.get(
      '/api/coverage',
      {
        schema: {
          tags: ['insight'],
          summary: 'Coverage measured after each sprint, and the configured per-sprint target',
          response: { 200: schemas.CoverageBody }
        }
      },
      async () => coverageHistory(repos, projectId, config().config)
    )

    app.get(
      '/api/docs/health',
      {
        schema: {
          tags: ['insight'],
          summary: 'Doc freshness from git history, with a rank × state heatmap',
          response: { 200: schemas.DocsHealthBody }
        }
      },
      async () => docsHealth(state.platform, projectRoot, state.clock())
    )

    app.get(
      '/api/evaluate-health',
      {
        schema: {
          tags: ['insight'],
          summary: 'Evaluation faults over the last n sprints (default 20, max 200)',
          querystring: Query({ n: Type.String() }),
          response: { 200: schemas.EvaluateHealthBody }
        }
      },
      async (request) =>
        evaluateHealth(
          repos,
          projectId,
          parseSprintWindow(request.query.n, EVALUATE_HEALTH_DEFAULT_N, EVALUATE_HEALTH_MAX_N),
          state.clock()
        )
    )

    app.get(
      '/api/limits',
      {
        schema: {
          tags: ['insight'],
          summary: 'Recorded usage against each configured limits.windows entry (warn ≥ 70 %, block ≥ 90 %)',
          response: { 200: schemas.LimitsBody }
        }
      },
      async () => usageLimits(repos, projectId, config().config, state.clock())
    )

    app.get(
      '/api/kpi',
      {
        schema: {
          tags: ['insight'],
          summary: 'KPI scorecard of a sprint (default: the newest)',
          querystring: Query({ sprint: Type.String(), tenantId: Type.String() }),
          response: { 200: schemas.KpiBody, 404: schemas.ErrorBody }
        }
      },
      async (request) => {
        const wanted = request.query.sprint
        const sprint = wanted ? await repos.sprints.get(wanted) : await repos.sprints.latest(projectId)
        if (wanted && (!sprint || sprint.project_id !== projectId))
          throw orchestratorError('ORCH_SPRINT_NOT_FOUND', `sprint ${wanted} not found`)
        const facts = sprint ? (await sprintFacts(repos, projectId, [sprint]))[0]! : null
        return scorecard(config().config, facts)
      }
    )

    app.get(
      '/api/kpi/trend',
      {
        schema: {
          tags: ['insight'],
          summary: 'One KPI over the last n sprints, oldest first (n default 12, max 100)',
          querystring: Query({ kpiId: Type.String(), n: Type.String(), tenantId: Type.String() }),
          response: { 200: schemas.KpiTrendBody, 404: schemas.ErrorBody }
        }
      },
      async (request) => {
        const definition = KPI_DEFINITIONS.find((d) => d.id === request.query.kpiId)
        if (!definition)
          throw orchestratorError(
            'NOT_FOUND',
            `unknown kpiId "${request.query.kpiId ?? ''}" (known: ${KPI_DEFINITIONS.map((d) => d.id).join(', ')})`
          )
        const n = parseSprintWindow(request.query.n, KPI_TREND_DEFAULT_N, KPI_TREND_MAX_N)
        const facts = await sprintFacts(repos, projectId, await repos.insight.recentSprints(projectId, n))
        return kpiTrend(definition, config().config, facts)
      }
    )

    app.get(
      '/api/doctor',
      {
        schema: {
          tags: ['insight'],
          summary: 'Readiness diagnostics: git, data directory, project config, agents',
          response: { 200: schemas.DoctorBody }
        }
      },
      async () => runDoctor({ root: projectRoot, dataDir: state.dataDir, configResult: config(), platform: state.platform, env: envRecord })
    )

    app.get(
      '/api/debt',
      {
        schema: {
          tags: ['insight'],
          summary: 'The active debt entries of the memory (NO_GO and BLOCKED tasks of the recent sprints) as markdown ("" when none)',
          response: { 200: schemas.ContentBody }
        }
      },
      async () => ({ content: await debtMarkdown(repos, { projectId, tenantId: LOCAL_TENANT }) })
    )
  }
}
