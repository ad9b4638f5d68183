import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import * as schemas from './insight.schemas.js'
import type { InsightService } from './insight.service.js'

const Query = (fields: Record<string, ReturnType<typeof Type.String>>) =>
  Type.Object(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])))
const tags = ['insight']
const config = { access: ACCESS.bearer }

/** Read-only views over the recorded state: agents, routing, coverage, docs, evaluation health, limits, KPIs, doctor, debt. */
export function insightRoutes({ insight }: { insight: InsightService }) {
  return async function register(app: App) {
    const summary = {
      agents: 'Configured agents with their recorded usage (attempts, DONE rate, tokens, cost, median agent time)',
      distribution: 'Share of recorded attempts per agent, with an IMBALANCE warning above 80 %',
      coverage: 'Coverage measured after each sprint, and the configured per-sprint target',
      docs: 'Doc freshness from git history, with a rank × state heatmap',
      evaluate: 'Evaluation faults over the last n sprints (default 20, max 200)',
      limits: 'Recorded usage against each configured limits.windows entry (warn ≥ 70 %, block ≥ 90 %)',
      kpi: 'KPI scorecard of a sprint (default: the newest)',
      trend: 'One KPI over the last n sprints, oldest first (n default 12, max 100)',
      doctor: 'Readiness diagnostics: git, data directory, project config, agents',
      debt: 'The active debt entries of the memory (NO_GO and BLOCKED tasks of the recent sprints) as markdown ("" when none)'
    }
    const schema = (key: keyof typeof summary, response: Record<number, unknown>) => ({ tags, summary: summary[key], response })

    app.get('/api/agents', { config, schema: schema('agents', { 200: schemas.AgentsBody }) }, () => insight.agents())
    app.get('/api/routing/distribution', { config, schema: schema('distribution', { 200: schemas.DistributionBody }) }, () =>
      insight.distribution()
    )
    app.get('/api/coverage', { config, schema: schema('coverage', { 200: schemas.CoverageBody, 422: schemas.ErrorBody }) }, () =>
      insight.coverage()
    )
    app.get('/api/docs/health', { config, schema: schema('docs', { 200: schemas.DocsHealthBody }) }, () => insight.docsHealth())
    app.get(
      '/api/evaluate-health',
      { config, schema: { ...schema('evaluate', { 200: schemas.EvaluateHealthBody }), querystring: Query({ n: Type.String() }) } },
      (request) => insight.evaluateHealth(request.query.n)
    )
    app.get('/api/limits', { config, schema: schema('limits', { 200: schemas.LimitsBody, 422: schemas.ErrorBody }) }, () =>
      insight.limits()
    )
    app.get(
      '/api/kpi',
      {
        config,
        schema: {
          ...schema('kpi', { 200: schemas.KpiBody, 404: schemas.ErrorBody, 422: schemas.ErrorBody }),
          querystring: Query({ sprint: Type.String(), tenantId: Type.String() })
        }
      },
      (request) => insight.kpi(request.query.sprint)
    )
    app.get(
      '/api/kpi/trend',
      {
        config,
        schema: {
          ...schema('trend', { 200: schemas.KpiTrendBody, 404: schemas.ErrorBody, 422: schemas.ErrorBody }),
          querystring: Query({ kpiId: Type.String(), n: Type.String(), tenantId: Type.String() })
        }
      },
      (request) => insight.kpiTrend(request.query.kpiId, request.query.n)
    )
    app.get('/api/doctor', { config, schema: schema('doctor', { 200: schemas.DoctorBody }) }, () => insight.doctor())
    app.get('/api/debt', { config, schema: schema('debt', { 200: schemas.ContentBody }) }, () => insight.debt())
  }
}
