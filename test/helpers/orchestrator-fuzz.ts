// fuzzService over a test orchestrator: the pieces every orchestrator fuzz test sets the same way.
import assert from 'node:assert/strict'
import { fuzzService, type FuzzOptions, type FuzzReport } from './fuzz.js'
import type { startOrchestrator } from './orchestrator.js'

type TestOrchestrator = Pick<Awaited<ReturnType<typeof startOrchestrator>>, 'app' | 'database' | 'token'>

export type OrchestratorFuzzOptions = Pick<FuzzOptions, 'ignoreTables' | 'skip' | 'onAccepted' | 'seed'> & {
  /** Requests per operation unless FUZZ_RUNS says otherwise. */
  runs: number
  /** Default: the API token as a bearer. */
  authHeaders?: FuzzOptions['authHeaders']
}

/** Fuzzes the orchestrator's operations (its OpenAPI), comparing the `orch_` tables, expecting `{error}` bodies on 4xx. */
export function fuzzOrchestrator(orch: TestOrchestrator, options: OrchestratorFuzzOptions): Promise<FuzzReport> {
  const { runs, authHeaders, ...rest } = options
  return fuzzService({
    app: orch.app,
    openapi: orch.app.swagger(),
    database: orch.database,
    tablePrefix: 'orch_',
    authHeaders: authHeaders ?? (() => ({ authorization: `Bearer ${orch.token}` })),
    isErrorBody: (body) => typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string',
    runsPerOperation: Number(process.env.FUZZ_RUNS ?? runs),
    ...rest
  })
}

/** No answer of the run was a 5xx (the statuses seen are the message otherwise). */
export function assertNo5xx(report: FuzzReport): void {
  assert.equal(Object.keys(report.byStatus).filter((s) => Number(s) >= 500).length, 0, JSON.stringify(report.byStatus))
}
