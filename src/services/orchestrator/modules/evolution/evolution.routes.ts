import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import type { EvolutionService } from './evolution.service.js'

const Genealogy = Type.Object({
  roots: Type.Array(Type.String()),
  nodes: Type.Record(
    Type.String(),
    Type.Object({
      agentId: Type.String(),
      agent: Type.String(),
      model: Type.Union([Type.String(), Type.Null()]),
      firstSeen: Type.String(),
      lastSeen: Type.String(),
      uses: Type.Integer()
    })
  ),
  edges: Type.Array(Type.Object({ parent: Type.String(), child: Type.String() }))
})
const Retirement = Type.Array(
  Type.Object({
    id: Type.String(),
    retiredAt: Type.String(),
    reason: Type.String(),
    stats: Type.Object({ successRate: Type.Number(), totalUses: Type.Integer(), sprintsParticipated: Type.Integer() }),
    source: Type.String()
  })
)
const PromptMetrics = Type.Array(
  Type.Object({
    agentId: Type.String(),
    currentVersion: Type.String(),
    totalVersions: Type.Integer(),
    currentSuccessRate: Type.Number(),
    trend: Type.Union([Type.Literal('improving'), Type.Literal('declining'), Type.Literal('stable')]),
    experimentStatus: Type.Union([Type.Literal('none'), Type.Literal('active'), Type.Literal('completed')]),
    versions: Type.Array(Type.Object({ version: Type.String(), tasks: Type.Integer(), successRate: Type.Number() }))
  })
)

/** /api/evolution/*: read-only projections of the recorded runs. */
export function evolutionRoutes(deps: { evolution: EvolutionService }) {
  return async function register(app: App) {
    const tags = ['evolution']
    app.get(
      '/api/evolution/genealogy',
      {
        config: { access: ACCESS.bearer },
        schema: { tags, summary: 'Agent lineage: a node per agent and model, edges where the model changed', response: { 200: Genealogy } }
      },
      async () => deps.evolution.genealogy()
    )
    app.get(
      '/api/evolution/retirement',
      {
        config: { access: ACCESS.bearer },
        schema: { tags, summary: 'Agents whose recent success rate fell below the threshold', response: { 200: Retirement } }
      },
      async () => deps.evolution.retirement()
    )
    app.get(
      '/api/evolution/prompt-metrics',
      {
        config: { access: ACCESS.bearer },
        schema: { tags, summary: 'Per agent: success by prompt version and the trend', response: { 200: PromptMetrics } }
      },
      async () => deps.evolution.promptMetrics()
    )
  }
}
