/** Response schemas of the insight routes (they also document the payloads in the OpenAPI document). */
import { Type } from 'typebox'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const Share = Type.Object({ id: Type.String(), tasks: Type.Integer(), pct: Type.Number() })

export const ErrorBody = Type.Object({ error: Type.String() })

export const AgentsBody = Type.Array(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    source: Type.String(),
    enabled: Type.Boolean(),
    totalUses: Type.Integer(),
    successRate: Nullable(Type.Number()),
    validity: Type.String(),
    routable: Type.Boolean(),
    provenance: Type.Object({ file: Nullable(Type.String()), key: Nullable(Type.String()), default: Type.Boolean() }),
    prompt: Nullable(Type.String()),
    diagnostics: Type.Array(Type.String()),
    kind: Nullable(Type.String()),
    usage: Type.Object({
      attempts: Type.Integer(),
      done: Type.Integer(),
      noGo: Type.Integer(),
      cancelled: Type.Integer(),
      inputTokens: Type.Integer(),
      outputTokens: Type.Integer(),
      costUsd: Type.Number(),
      medianAgentMs: Nullable(Type.Number())
    })
  })
)

export const DistributionBody = Type.Object({
  agents: Type.Object({ entries: Type.Array(Share), total: Type.Integer() }),
  skills: Type.Object({ entries: Type.Array(Share), total: Type.Integer() }),
  warnings: Type.Array(Type.String()),
  totalOutcomes: Type.Integer()
})

export const CoverageBody = Type.Object({
  history: Type.Array(
    Type.Object({ sprintId: Type.String(), coverage: Nullable(Type.Number()), tasks: Type.Integer(), completed: Type.Integer() })
  ),
  budget: Type.Object({ perSprint: Nullable(Type.Number()) })
})

export const DocsHealthBody = Type.Object({
  note: Type.Optional(Type.String()),
  rows: Type.Array(
    Type.Object({
      path: Type.String(),
      doc_rank: Type.Integer(),
      state: Type.String(),
      lastDocCommit: Nullable(Type.String()),
      lastCodeCommit: Nullable(Type.String()),
      daysBehind: Type.Integer()
    })
  ),
  heatmap: Type.Array(Type.Object({ bucket: Type.String(), state: Type.String(), count: Type.Integer() })),
  generatedAt: Type.String()
})

export const EvaluateHealthBody = Type.Object({
  counts: Type.Object({
    EVALUATION_FAULT: Type.Integer(),
    EVALUATE_ABORTED: Type.Integer(),
    EVALUATE_PREMATURE: Type.Integer(),
    RESULT_CONTRACT_DRIFT: Type.Integer()
  }),
  lastEventAt: Nullable(Type.String()),
  sprintsScanned: Type.Integer(),
  clean: Type.Boolean(),
  generatedAt: Type.String()
})

export const LimitsBody = Type.Object({
  unavailable: Type.Boolean(),
  reason: Nullable(Type.String()),
  windows: Type.Array(
    Type.Object({
      name: Type.String(),
      hours: Type.Number(),
      pct: Type.Number(),
      used: Type.Object({ tokens: Type.Integer(), usd: Type.Number() }),
      limit: Type.Object({ tokens: Nullable(Type.Integer()), usd: Nullable(Type.Number()) }),
      resetAt: Nullable(Type.Object({ text: Type.String(), timezone: Type.Null() })),
      verdict: Type.Union([Type.Literal('ok'), Type.Literal('warn'), Type.Literal('block')])
    })
  )
})

const Kpi = Type.Object({
  id: Type.String(),
  title: Type.Object({ en: Type.String() }),
  value: Nullable(Type.Number()),
  target: Nullable(Type.Number()),
  status: Type.String(),
  direction: Type.String(),
  format: Type.String(),
  unit: Type.String()
})
export const KpiBody = Type.Object({ sprintId: Nullable(Type.String()), kpis: Type.Array(Kpi) })
export const KpiTrendBody = Type.Object({
  kpiId: Type.String(),
  series: Type.Array(Type.Object({ periodKey: Type.String(), value: Nullable(Type.Number()), status: Type.String() }))
})

export const DoctorBody = Type.Object({
  ok: Type.Boolean(),
  checks: Type.Array(Type.Object({ name: Type.String(), passed: Type.Boolean(), message: Type.String(), required: Type.Boolean() }))
})

export const ContentBody = Type.Object({ content: Type.String() })
