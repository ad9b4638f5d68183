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

/** One prepared statement over two indexes: the revision row and the running flows' count. */
export function createFlowRevisionReader(base: OrchestratorDb): (projectId: number, tenantId: string) => Promise<FlowListRevision> {
  const db = base.withTables<{
    orch_run_flow_revisions: RevisionsTable
    orch_run_flows: { project_id: number; tenant_id: string; state: string }
  }>()
  const read = prepareQuery(db, 2, (projectId: number, tenantId: string) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('orch_run_flow_revisions').select('revision').where('project_id', '=', projectId).as('revision'),
      eb
        .selectFrom('orch_run_flows')
        .select(sql<number>`count(*)`.as('n'))
        .where('project_id', '=', projectId)
        .where('state', 'in', ['STARTING', 'DETACHED_RUNNING'])
        .where('tenant_id', '=', tenantId)
        .as('running')
    ])
  )
  return async (projectId, tenantId) => {
    const row = (await read(projectId, tenantId))[0]
    return { revision: String(row?.revision ?? 0), running: Number(row?.running ?? 0) }
  }
}
