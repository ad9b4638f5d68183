import { sql, type Kysely } from 'kysely'
import { prepareQuery } from '../../../core/db/prepared.js'
import type { OrchestratorDb } from './db.js'

interface RevisionsTable {
  project_id: number
  revision: number
}
type RevisionsDb = Kysely<{ orch_run_flow_revisions: RevisionsTable }>

/** Raises the project's flow revision; called inside the transaction of every flow write. */
export async function bumpFlowRevision(trx: Kysely<any>, projectId: number): Promise<void> {
  await (trx as RevisionsDb)
    .insertInto('orch_run_flow_revisions')
    .values({ project_id: projectId, revision: 1 })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ revision: sql<number>`orch_run_flow_revisions.revision + 1` }))
    .execute()
}

export interface FlowListRevision {
  /** Changes with every write of one of the project's flows, by this process or another. */
  revision: string
  /** The tenant's flows starting or running: they may have moved on (their job ended) without a write yet. */
  running: number
}

/** The revision row and the count of the tenant's running flows, each read from an index (migration 0022). */
export function flowRevisionQuery(base: OrchestratorDb, projectId: number, tenantId: string) {
  const db = base.withTables<{
    orch_run_flow_revisions: RevisionsTable
    orch_run_flows: { project_id: number; tenant_id: string; state: string }
  }>()
  return db.selectNoFrom((eb) => [
    eb.selectFrom('orch_run_flow_revisions').select('revision').where('project_id', '=', projectId).as('revision'),
    eb
      .selectFrom('orch_run_flows')
      .select(sql<number>`count(*)`.as('n'))
      .where('project_id', '=', projectId)
      .where('state', 'in', ['STARTING', 'DETACHED_RUNNING'])
      .where('tenant_id', '=', tenantId)
      .as('running')
  ])
}

/** One prepared statement for every read of the flow list's version. */
export function createFlowRevisionReader(base: OrchestratorDb): (projectId: number, tenantId: string) => Promise<FlowListRevision> {
  const read = prepareQuery(base, 2, (projectId: number, tenantId: string) => flowRevisionQuery(base, projectId, tenantId))
  return async (projectId, tenantId) => {
    const row = (await read(projectId, tenantId))[0]
    return { revision: String(row?.revision ?? 0), running: Number(row?.running ?? 0) }
  }
}
